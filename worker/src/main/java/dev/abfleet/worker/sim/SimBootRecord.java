package dev.abfleet.worker.sim;

/**
 * One finished simulated boot, as the driver saw it; for benchmarks that run the whole fleet in
 * one JVM (for example to check that no host ran two boots at once).
 *
 * @param hostId the simulated host
 * @param runId the run the boot belongs to
 * @param startNanos {@link System#nanoTime()} when the boot started
 * @param endNanos {@link System#nanoTime()} when it ended
 * @param simulatedMs how long the boot took in simulated time (cut at the timeout)
 * @param timedOut the boot hit its timeout
 * @param panicked the simulated kernel failed before the harness started
 */
public record SimBootRecord(
    String hostId, String runId, long startNanos, long endNanos, long simulatedMs, boolean timedOut, boolean panicked) {

  /** Real time the boot took, in nanoseconds. */
  public long wallNanos() {
    return endNanos - startNanos;
  }
}
