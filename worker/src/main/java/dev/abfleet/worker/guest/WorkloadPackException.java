package dev.abfleet.worker.guest;

/**
 * A workload directory cannot be packed: it holds something the guest image cannot carry (a
 * special file, a symlink out of the directory), is over the size cap, or cannot be read. The
 * message names the offending path and the fix; for a client it is bad input.
 */
public final class WorkloadPackException extends Exception {

  public WorkloadPackException(String message) {
    super(message);
  }

  public WorkloadPackException(String message, Throwable cause) {
    super(message, cause);
  }
}
