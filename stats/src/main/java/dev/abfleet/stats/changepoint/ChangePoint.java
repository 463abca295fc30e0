package dev.abfleet.stats.changepoint;

/**
 * A sustained shift in a series: the values from {@code index} on sit at another level than
 * the values before it (within the segment the detector was splitting).
 *
 * @param index position, in the input series, of the first value after the change (the first
 *     night at the new level)
 * @param beforeMedian median of the segment before the change, in the series' unit
 * @param afterMedian median of the segment after the change, in the series' unit
 * @param shift afterMedian - beforeMedian, in the series' unit
 * @param relative afterMedian / beforeMedian - 1 (-0.05 = 5% lower); NaN unless both medians
 *     are positive (a series of per-night changes is already relative: read {@code shift})
 * @param statistic standardized rank statistic at the split (|z| of the Mann-Whitney U of
 *     "before" vs "after"); larger = more separated
 * @param pValue permutation p-value of the maximum statistic over all admissible splits of the
 *     segment, so that scanning many splits does not inflate false alarms
 */
public record ChangePoint(
    int index,
    double beforeMedian,
    double afterMedian,
    double shift,
    double relative,
    double statistic,
    double pValue) {}
