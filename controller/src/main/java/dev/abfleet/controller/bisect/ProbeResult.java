package dev.abfleet.controller.bisect;

/**
 * The result of comparing the good endpoint (kernel 0) with a probe, or, for the first step of
 * a search, with the bad endpoint.
 *
 * @param experiment the one experiment this probe ran (empty for a probe that ran none)
 * @param pairs boot pairs completed when the experiment stopped
 * @param boots boots the experiment recorded (two per completed pair, plus those of pairs still
 *     incomplete when it stopped)
 * @param change relative change probe/good - 1 (NaN when not computable)
 * @param ciLow lower end of the interval for change at the level of the deciding look
 * @param ciHigh upper end of that interval
 * @param note why the probe's experiment stopped, for the report
 * @param rule why the probe got its outcome, one line ({@link ProbeRule}); empty in results
 *     recorded before the rule existed
 */
public record ProbeResult(Outcome outcome, String experiment, int pairs, int boots, double change, double ciLow,
    double ciHigh, String note, String rule) {
  public ProbeResult {
    rule = rule == null ? "" : rule;
  }

  public ProbeResult(Outcome outcome, String experiment, int pairs, int boots, double change, double ciLow,
      double ciHigh, String note) {
    this(outcome, experiment, pairs, boots, change, ciLow, ciHigh, note, "");
  }
}
