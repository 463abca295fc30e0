package dev.abfleet.worker.artifact;

import java.io.IOException;

/** An artifact's content does not hash to the sha256 it was requested by. */
public final class HashMismatchException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String expected;
  private final String actual;

  public HashMismatchException(String source, String expected, String actual) {
    super("artifact " + source + " has sha256 " + actual + " but " + expected
        + " was requested; check the artifact or the hash in the experiment spec");
    this.expected = expected;
    this.actual = actual;
  }

  public String expected() {
    return expected;
  }

  public String actual() {
    return actual;
  }
}
