package dev.abfleet.cli;

/**
 * The exit codes of every abfleet command. A script can tell a verdict from a broken run: only
 * a regression (or an ambiguous bisect) exits 1; bad input exits 2; anything that kept the
 * command from reaching an answer exits 3.
 */
public final class ExitCodes {
  /** Done: accepted, found, or nothing to report. */
  public static final int OK = 0;
  /** The gate failed: a gating metric regressed (bisect: the answer is ambiguous). */
  public static final int GATE = 1;
  /** Bad input: one line names the problem and the fix. */
  public static final int BAD_INPUT = 2;
  /** The command could not finish: an experiment failed, the controller was unreachable. */
  public static final int FAILED = 3;

  private ExitCodes() {}
}
