package dev.abfleet.worker.link;

/**
 * Lifecycle of the controller link.
 *
 * <pre>
 * CONNECTING --welcome--> CONNECTED --stream error/end--> BACKOFF --timer--> CONNECTING
 *      \--stream error------------------------------------^
 * any state --close()--> CLOSED (final)
 * </pre>
 */
public enum LinkState {
  /** Stream opened, Hello sent, waiting for Welcome. */
  CONNECTING,
  /** Welcome received: heartbeats flow, assignments may arrive, the outbox drains. */
  CONNECTED,
  /** Stream lost; a reconnect is scheduled. */
  BACKOFF,
  /** Closed by the owner; never reconnects. */
  CLOSED
}
