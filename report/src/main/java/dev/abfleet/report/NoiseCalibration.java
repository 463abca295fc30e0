package dev.abfleet.report;

import java.util.List;

/**
 * A host class's measured A/A noise, as a report quotes it ({@code abfleet calibrate --real}
 * measured it; the report of a later experiment on that class shows it beside the verdicts).
 *
 * @param hostClass the class label, e.g. {@code qemu/tcg}
 * @param experiments A/A experiments run on the class
 * @param falsePositives of those, experiments where any gating metric was called improved or regressed
 * @param fpLow lower end of the 95% Wilson interval of the false-positive rate
 * @param fpHigh upper end of that interval
 * @param date the day of the latest A/A experiment, ISO format
 * @param mde the relative change the pair counts are planned for, e.g. 0.02
 * @param power the power they are planned for, e.g. 0.8
 * @param metrics per-metric noise, in the record's order
 */
public record NoiseCalibration(String hostClass, long experiments, long falsePositives, double fpLow,
    double fpHigh, String date, double mde, double power, List<Metric> metrics) {

  public NoiseCalibration {
    metrics = List.copyOf(metrics);
  }

  /**
   * @param cv coefficient of variation of the per-boot medians (both arms); NaN = too few boots
   * @param pairedSd sd of the paired log-ratio differences; NaN = too few pairs
   * @param pairs pairs measured
   * @param pairsForMde pairs a paired experiment needs to detect {@code mde} at {@code power};
   *     -1 = unknown (the sd is unknown)
   */
  public record Metric(String metric, double cv, double pairedSd, long pairs, long pairsForMde) {}

  public double fpRate() {
    return experiments == 0 ? Double.NaN : falsePositives / (double) experiments;
  }

  /** The most pairs any metric needs; -1 when none is known. */
  public long pairsForMde() {
    return metrics.stream().mapToLong(Metric::pairsForMde).max().orElse(-1);
  }
}
