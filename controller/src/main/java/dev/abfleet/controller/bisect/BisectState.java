package dev.abfleet.controller.bisect;

import dev.abfleet.controller.CborSerializable;
import java.util.Locale;

/**
 * A bisect: what was asked, the search so far and the probe in flight. Immutable; each event
 * makes the next state ({@link #apply}).
 *
 * @param request null before the bisect was started
 * @param search the search after the probes finished so far; null before the start
 * @param inFlight the probe whose experiment runs now; null when none
 * @param message why the bisect failed or was cancelled; empty otherwise
 * @param startedAtMs when it was accepted, Unix epoch ms
 */
public record BisectState(String id, Status status, BisectRequest request, Bisection.Result search,
    InFlight inFlight, String message, long startedAtMs) implements CborSerializable {

  /** Where a bisect is. */
  public enum Status {
    /** Nothing started under this id. */
    NEW,
    RUNNING,
    /** The first regressing kernel is pinned down. */
    FOUND,
    /** A probe stayed inconclusive: the range is left open. */
    AMBIGUOUS,
    /**
     * A probe's experiment failed, was cancelled by someone else, or was refused; or the
     * endpoints showed no regression to bisect.
     */
    FAILED,
    CANCELLED;

    /** "running", "found", ...; "unknown" for NEW. */
    public String wire() {
      return this == NEW ? "unknown" : name().toLowerCase(Locale.ROOT);
    }
  }

  /** The probe whose experiment runs: kernel {@code good} against kernel {@code probe}. */
  public record InFlight(int good, int probe, String experimentId) implements CborSerializable {}

  public BisectState {
    message = message == null ? "" : message;
  }

  public static BisectState empty(String id) {
    return new BisectState(id, Status.NEW, null, null, null, "", 0);
  }

  public boolean running() {
    return status == Status.RUNNING;
  }

  public boolean terminal() {
    return status != Status.NEW && status != Status.RUNNING;
  }

  public BisectState apply(BisectEvent event) {
    if (event instanceof BisectEvent.BisectStarted e) {
      return settled(new BisectState(id, Status.RUNNING, e.request(),
          Bisection.start(e.request().kernels().size(), e.request().fraction()), null, "", e.atMs()));
    }
    if (event instanceof BisectEvent.ProbeSubmitted e) {
      return new BisectState(id, status, request, search,
          new InFlight(e.good(), e.probe(), e.experimentId()), message, startedAtMs);
    }
    if (event instanceof BisectEvent.ProbeFinished e) {
      return settled(new BisectState(id, status, request, search.after(e.result()), null, message,
          startedAtMs));
    }
    if (event instanceof BisectEvent.BisectFailed e) {
      return new BisectState(id, Status.FAILED, request, search, null, e.message(), startedAtMs);
    }
    if (event instanceof BisectEvent.BisectCancelled e) {
      return new BisectState(id, Status.CANCELLED, request, search, null, e.reason(), startedAtMs);
    }
    throw new IllegalStateException("unknown bisect event " + event);
  }

  /**
   * Found or ambiguous once the search has nothing left to probe; failed when the endpoints'
   * experiment showed no regression to bisect.
   */
  private BisectState settled(BisectState s) {
    if (!s.search().done()) {
      return s;
    }
    if (s.search().noRegression()) {
      ProbeResult e = s.search().endpoints();
      return new BisectState(id, Status.FAILED, s.request(), s.search(), null, "the endpoints show no regression of "
          + s.request().metric() + " to bisect (" + e.rule() + ", " + e.pairs() + " pairs); check the metric and"
          + " the order of the kernels (good first, regressed last), or give the probes more pairs (--looks)",
          s.startedAtMs());
    }
    Status end = s.search().found() ? Status.FOUND : Status.AMBIGUOUS;
    return new BisectState(id, end, s.request(), s.search(), null, s.message(), s.startedAtMs());
  }
}
