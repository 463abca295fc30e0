package dev.abfleet.controller.bisect;

/**
 * The result of comparing the last known-good artifact with a probe.
 *
 * @param experiment the one experiment this probe ran (empty for a probe that ran none)
 * @param pairs boot pairs completed when the experiment stopped
 * @param boots boots the experiment recorded (two per completed pair, plus those of pairs still
 *     incomplete when it stopped)
 * @param change relative change probe/good - 1 (NaN when not computable)
 * @param ciLow lower end of the interval for change at the level of the deciding look
 * @param ciHigh upper end of that interval
 * @param note why the probe stopped, for the report
 */
public record ProbeResult(Outcome outcome, String experiment, int pairs, int boots, double change, double ciLow,
    double ciHigh, String note) {}
