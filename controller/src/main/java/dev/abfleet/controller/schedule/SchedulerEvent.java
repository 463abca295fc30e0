package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;

/** What the scheduler persists: leases and host states; replayed on recovery. */
public sealed interface SchedulerEvent extends CborSerializable {

  /** The host is leased to the experiment under this epoch (epochs only grow per host). */
  record HostLeased(String hostId, long epoch, String experimentId) implements SchedulerEvent {}

  /** The lease (host, epoch) ended: block done, host gone, revoked or not needed. */
  record LeaseReleased(String hostId, long epoch) implements SchedulerEvent {}

  /** An operator drained the host: no new lease until it is undrained. */
  record HostDrained(String hostId, String reason) implements SchedulerEvent {}

  /** An operator put the drained host back into service. */
  record HostUndrained(String hostId) implements SchedulerEvent {}

  /**
   * The host failed too many boots in a row for its own sake: no new lease until released.
   *
   * @param sinceEpochMs when, in ms since the epoch
   */
  record HostQuarantined(String hostId, String reason, long sinceEpochMs) implements SchedulerEvent {}

  /**
   * The host's quarantine ended.
   *
   * @param why "operator" or "cool-down"
   */
  record HostReleased(String hostId, String why) implements SchedulerEvent {}
}
