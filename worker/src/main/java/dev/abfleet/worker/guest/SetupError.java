package dev.abfleet.worker.guest;

/**
 * A {@code setup_error} event: /init could not prepare what the boot asked for (load a kernel
 * module, mount the host volume), so the harness did not run. A fault of the arm's
 * configuration, not of the kernel booting.
 *
 * @param lineNumber 1-based line of the results channel
 * @param step what failed, e.g. {@code insmod 003-9p.ko} or {@code mount -t 9p abfleet-vol}
 * @param message the guest tool's message
 */
public record SetupError(int lineNumber, String step, String message) {

  /** "step: message", or the one that is not empty. */
  public String describe() {
    if (step.isEmpty()) {
      return message;
    }
    return message.isEmpty() ? step : step + ": " + message;
  }
}
