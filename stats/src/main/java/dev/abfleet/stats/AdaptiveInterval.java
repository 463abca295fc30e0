package dev.abfleet.stats;

/**
 * Confidence interval and estimate of the centre of paired differences d by inverting the
 * {@link AdaptiveSignedRank} test: the interval holds every shift θ at which the test of
 * d - θ does not reject, so the interval and the p-value of the verdict come from one test.
 *
 * <p>The score cap is chosen again at every θ from |d - θ|, exactly as the test at 0 chooses
 * it from |d|, rather than once from the residuals around an estimate. Each test in the
 * family is then exact on its own (at the true centre θ0 the |d - θ0| carry no sign
 * information), so the set of accepted θ covers θ0 with probability at least 1 - alpha for
 * every continuous distribution symmetric about θ0; a cap fixed from the residuals would
 * depend on the signs of d - θ0 and lose that guarantee. The reported interval is the hull
 * of the accepted set (with an adaptive cap the set need not be convex), which covers at
 * least as often.
 *
 * <p>Between two consecutive distinct Walsh averages (d_i + d_j) / 2 the ranks and signs of
 * d - θ do not change, so the statistic for a given cap is constant on each such gap and
 * non-increasing in θ across gaps (bounded scores are non-decreasing). Each gap is judged at
 * its midpoint, with the cap chosen there; endpoints are Walsh averages, as in the Wilcoxon
 * interval, which this reproduces exactly when the cap is m everywhere. The tail weight can
 * cross a cut point inside a gap; judging the whole gap by its midpoint then moves the
 * boundary by less than one gap, which the coverage simulation does not resolve.
 *
 * <p>Up to {@link AdaptiveSignedRank#EXACT_MAX_N} differences the gaps are listed and scanned
 * ({@link ListedGaps}); above, where the p-values come from the normal approximation, they
 * are found by bisection without listing the n(n+1)/2 Walsh averages ({@link ImplicitGaps}).
 */
sealed interface AdaptiveInterval permits ListedGaps, ImplicitGaps {
  /** The inversion for these differences (zeros included: a zero is evidence of no shift). */
  static AdaptiveInterval of(double[] d) {
    return d.length > AdaptiveSignedRank.EXACT_MAX_N ? new ImplicitGaps(d) : new ListedGaps(d);
  }

  /**
   * Hull of the shifts not rejected at two-sided level alpha, as {low, high}; null when no
   * bounded interval exists at that level (too few pairs: 2^(1-n) > alpha).
   */
  double[] interval(double alpha);

  /**
   * The test's own estimate: the centre of the gaps where the test's p is largest (where the
   * centred statistic crosses 0). NaN for no data.
   */
  double estimate();
}
