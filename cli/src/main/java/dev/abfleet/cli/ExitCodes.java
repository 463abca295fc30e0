package dev.abfleet.cli;

/**
 * The exit codes of every abfleet command. A script can tell a verdict from a broken run: only
 * a regression (or an ambiguous bisect) exits 1; bad input exits 2; anything that kept the
 * command from reaching an answer exits 3; with --gate, a gate that neither passed nor failed
 * exits 4.
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
  /**
   * With --gate: the gate is inconclusive. Nothing regressed, but some gating metric was not
   * shown to improve, hold or stay unchanged (more pairs would decide); not a pass.
   */
  public static final int GATE_INCONCLUSIVE = 4;

  private ExitCodes() {}

  /**
   * The exit code of --gate for a finished experiment: 0 on pass, {@link #GATE} on fail,
   * {@link #GATE_INCONCLUSIVE} otherwise. {@code gate} is Experiment.gate; a controller that
   * does not send it yet leaves it empty, and the overall verdict then decides (improved,
   * no_change or holds pass; regressed fails).
   */
  public static int ofGate(String gate, String overall) {
    String g = gate.isEmpty() ? switch (overall) {
      case "improved", "no_change", "holds" -> "pass";
      case "regressed" -> "fail";
      default -> "inconclusive";
    } : gate;
    return switch (g) {
      case "pass" -> OK;
      case "fail" -> GATE;
      default -> GATE_INCONCLUSIVE;
    };
  }
}
