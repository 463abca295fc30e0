package dev.abfleet.worker.run;

/**
 * The part of a simulated boot that is waited out on a timer rather than by a thread: the run's
 * procedure returns at once with the boot's report, and the report is due {@link #nanos} later.
 * Every run whose procedure returned is then told {@link #ended} exactly once.
 */
public interface BootWait {
  /** Real time, in nanoseconds, that the report of {@code runId} waits; 0 = none (no boot ran). */
  long nanos(String runId);

  /**
   * The wait of {@code runId} is over: {@code reported} = it ran out and the report was sent;
   * false = a cancel cut it and nothing was reported.
   */
  void ended(String runId, boolean reported);
}
