package dev.abfleet.controller.nightly;

/** Why a run could not start (a kernel missing, the store full); the message names the fix. */
public final class NightlyProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NightlyProblem(String message) {
    super(message);
  }
}
