package dev.abfleet.worker.guest;

/**
 * The guest image (harness binary or initramfs) could not be built on this host. The message
 * names the missing piece and the fix; a run that hits it is an INFRA failure, not a result.
 */
public final class GuestImageException extends Exception {

  public GuestImageException(String message) {
    super(message);
  }

  public GuestImageException(String message, Throwable cause) {
    super(message, cause);
  }
}
