package dev.abfleet.worker.guest;

/**
 * The {@code workload_end} event: how a workload's command ended in the guest.
 *
 * @param lineNumber 1-based line of the results channel
 * @param exitStatus the command's exit status; -1 when a signal ended it
 * @param signal the signal that ended it; 0 = none
 * @param timedOut fleetbench killed it at its timeout
 * @param flooded fleetbench killed it for printing more than the channel can take
 * @param timeoutS the timeout it ran with, in seconds; 0 = unknown
 * @param elapsedMs from start to exit, in ms; -1 = unknown
 */
public record WorkloadEnd(int lineNumber, int exitStatus, int signal, boolean timedOut, boolean flooded,
    int timeoutS, long elapsedMs) {

  /** Exited with status 0, in time, without flooding. */
  public boolean succeeded() {
    return exitStatus == 0 && signal == 0 && !timedOut && !flooded;
  }
}
