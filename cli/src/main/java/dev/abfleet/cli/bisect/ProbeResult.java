package dev.abfleet.cli.bisect;

/**
 * The result of comparing the last known-good artifact with a probe.
 *
 * @param pairs boot pairs used (each pair is two boots)
 * @param experiments experiments submitted for this probe (one per sequential look reached)
 * @param change relative change probe/good - 1 (NaN when not computable)
 * @param ciLow lower end of the interval for change at the level of the deciding look
 * @param ciHigh upper end of that interval
 * @param note why the probe stopped, for the report
 */
public record ProbeResult(Outcome outcome, int pairs, int experiments, double change, double ciLow,
    double ciHigh, String note) {}
