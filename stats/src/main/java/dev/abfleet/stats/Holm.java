package dev.abfleet.stats;

import java.util.Arrays;
import java.util.Comparator;

/** Holm's step-down adjustment of p-values (family-wise error control, any dependence). */
final class Holm {
  private Holm() {}

  /**
   * Adjusted p-values in input order: with p sorted ascending, adj(i) = max over j <= i of
   * min(1, (m - j + 1) p(j)). NaN counts in m as a p of 1 and stays NaN in the output.
   */
  static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      order[i] = i;
    }
    Comparator<Integer> byP = Comparator.comparingDouble(i -> Double.isNaN(p[i]) ? 1.0 : p[i]);
    Arrays.sort(order, byP);
    double[] adjusted = new double[m];
    double running = 0;
    for (int rank = 0; rank < m; rank++) {
      int i = order[rank];
      double pi = Double.isNaN(p[i]) ? 1.0 : p[i];
      running = Math.max(running, Math.min(1.0, (m - rank) * pi));
      adjusted[i] = Double.isNaN(p[i]) ? Double.NaN : running;
    }
    return adjusted;
  }
}
