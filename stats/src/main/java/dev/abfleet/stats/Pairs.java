package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The usable pairs of one metric: both values finite and > 0. Pairs with a NaN (a failed boot)
 * or an impossible value (zero, negative, infinite) are dropped and counted.
 *
 * @param baseline kept baseline values, pair order preserved
 * @param candidate kept candidate values, pair order preserved
 * @param logRatios d_i = ln(candidate_i) - ln(baseline_i), pair order preserved
 * @param hosts host of each kept pair; null when not given
 * @param baselineFirst boot order of each kept pair; null when not given
 * @param failedBoots pairs dropped because at least one boot produced NaN
 * @param invalid pairs dropped for a zero, negative or infinite value
 * @param warnings human-readable notes on what was dropped or ignored
 */
record Pairs(
    double[] baseline,
    double[] candidate,
    double[] logRatios,
    String[] hosts,
    boolean[] baselineFirst,
    int failedBoots,
    int invalid,
    List<String> warnings) {

  static Pairs of(double[] baselineIn, double[] candidateIn) {
    return of(baselineIn, candidateIn, null, null);
  }

  static Pairs of(double[] baselineIn, double[] candidateIn, String[] hostsIn,
      boolean[] orderIn) {
    double[] a = baselineIn == null ? new double[0] : baselineIn;
    double[] b = candidateIn == null ? new double[0] : candidateIn;
    List<String> warnings = new ArrayList<>();
    int total = Math.min(a.length, b.length);
    if (a.length != b.length) {
      warnings.add("baseline has " + a.length + " values, candidate " + b.length
          + "; only the first " + total + " pairs are used");
    }
    String[] hostsAll = hostsIn != null && hostsIn.length >= total ? hostsIn : null;
    boolean[] orderAll = orderIn != null && orderIn.length >= total ? orderIn : null;
    double[] keptA = new double[total];
    double[] keptB = new double[total];
    double[] d = new double[total];
    String[] keptHosts = new String[total];
    boolean[] keptOrder = new boolean[total];
    int n = 0;
    int failed = 0;
    int invalid = 0;
    for (int i = 0; i < total; i++) {
      if (Double.isNaN(a[i]) || Double.isNaN(b[i])) {
        failed++;
      } else if (!usable(a[i]) || !usable(b[i])) {
        invalid++;
      } else {
        keptA[n] = a[i];
        keptB[n] = b[i];
        d[n] = Math.log(b[i]) - Math.log(a[i]);
        keptHosts[n] = hostsAll == null ? null : hostsAll[i];
        keptOrder[n] = orderAll != null && orderAll[i];
        n++;
      }
    }
    if (failed > 0) {
      warnings.add(failed + " of " + total + " " + plural(total, "pair")
          + " dropped because a boot failed (NaN value)");
    }
    if (invalid > 0) {
      warnings.add(invalid + " of " + total + " " + plural(total, "pair")
          + " dropped for a zero, negative or infinite value (values must be finite and > 0)");
    }
    return new Pairs(Arrays.copyOf(keptA, n), Arrays.copyOf(keptB, n), Arrays.copyOf(d, n),
        hostsAll == null ? null : Arrays.copyOf(keptHosts, n),
        orderAll == null ? null : Arrays.copyOf(keptOrder, n),
        failed, invalid, List.copyOf(warnings));
  }

  int n() {
    return logRatios.length;
  }

  static boolean usable(double v) {
    return Double.isFinite(v) && v > 0;
  }

  static String plural(long count, String noun) {
    return count == 1 ? noun : noun + "s";
  }
}
