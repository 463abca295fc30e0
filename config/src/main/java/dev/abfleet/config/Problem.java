package dev.abfleet.config;

/**
 * Bad input from the user: the command prints the message as one line and exits with code 2.
 * The message names the problem and the fix.
 */
public final class Problem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public Problem(String message) {
    super(message);
  }
}
