package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;

/**
 * Host-to-host differences in the paired log ratios. Host offsets that hit both arms alike
 * cancel in d; what remains is a host-by-kernel interaction, which makes pairs on one host
 * correlated. The interval then comes from a two-stage cluster bootstrap (hosts with
 * replacement, then pairs within each drawn host), and the engine reports the union of that
 * interval and the signed-rank one, never narrower than the latter.
 */
final class HostEffects {
  /**
   * Bootstrap resamples. The bootstrap interval only ever widens the signed-rank one, and its
   * far percentiles at Bonferroni levels are the extreme resamples either way; more resamples
   * cost time in every multi-host look.
   */
  static final int RESAMPLES = 250;

  private HostEffects() {}

  /** Pair indices per host, hosts in order of first appearance; null hosts count as one. */
  static List<int[]> groups(String[] hosts) {
    Map<String, List<Integer>> by = new LinkedHashMap<>();
    for (int i = 0; i < hosts.length; i++) {
      by.computeIfAbsent(String.valueOf(hosts[i]), h -> new ArrayList<>()).add(i);
    }
    List<int[]> out = new ArrayList<>();
    for (List<Integer> idx : by.values()) {
      out.add(idx.stream().mapToInt(Integer::intValue).toArray());
    }
    return out;
  }

  /**
   * Kruskal-Wallis p-value of "d has the same distribution on every host" (chi-square
   * approximation, tie-corrected, as scipy.stats.kruskal); NaN with fewer than two hosts
   * that have two or more pairs.
   */
  static double kruskalWallisP(double[] d, List<int[]> groups) {
    List<int[]> used = groups.stream().filter(g -> g.length >= 2).toList();
    if (used.size() < 2) {
      return Double.NaN;
    }
    int n = used.stream().mapToInt(g -> g.length).sum();
    double[] all = new double[n];
    int at = 0;
    for (int[] g : used) {
      for (int i : g) {
        all[at++] = d[i];
      }
    }
    int[] ranks2 = MannWhitney.doubledMidRanks(all);
    double h = 0;
    at = 0;
    for (int[] g : used) {
      double sum = 0;
      for (int k = 0; k < g.length; k++) {
        sum += ranks2[at++] / 2.0;
      }
      h += sum * sum / g.length;
    }
    h = 12.0 / (n * (n + 1.0)) * h - 3.0 * (n + 1);
    int[] sorted = ranks2.clone();
    Arrays.sort(sorted);
    double tieSum = 0;
    int i = 0;
    while (i < n) {
      int j = i;
      while (j < n && sorted[j] == sorted[i]) {
        j++;
      }
      double t = j - i;
      tieSum += t * t * t - t;
      i = j;
    }
    double correction = 1 - tieSum / ((double) n * n * n - n);
    if (correction <= 0) {
      return 1.0;
    }
    h /= correction;
    return 1 - new ChiSquaredDistribution(used.size() - 1.0).cumulativeProbability(h);
  }

  /** Hodges-Lehmann estimate of d on each host with two or more pairs. */
  static double[] perHostEstimates(double[] d, List<int[]> groups) {
    return groups.stream().filter(g -> g.length >= 2).mapToDouble(g -> {
      double[] sub = new double[g.length];
      for (int k = 0; k < g.length; k++) {
        sub[k] = d[g[k]];
      }
      return HodgesLehmann.walshMedian(sub);
    }).toArray();
  }

  /**
   * Sorted bootstrap distribution of the Hodges-Lehmann estimate, clustered by host: per
   * resample, {@code groups.size()} hosts drawn with replacement, then as many pairs as the
   * drawn host has, with replacement from it (at most 2n pairs in all).
   */
  static double[] bootstrap(double[] d, List<int[]> groups, SplittableRandom rng) {
    int g = groups.size();
    int n = d.length;
    int cap = n * 2;
    WalshResampler walsh = new WalshResampler(d);
    int[] counts = new int[n];
    double[] out = new double[RESAMPLES];
    for (int b = 0; b < RESAMPLES; b++) {
      Arrays.fill(counts, 0);
      int m = 0;
      for (int h = 0; h < g; h++) {
        int[] host = groups.get(rng.nextInt(g));
        for (int k = 0; k < host.length && m < cap; k++) {
          counts[host[rng.nextInt(host.length)]]++;
          m++;
        }
      }
      out[b] = walsh.estimate(counts, m);
    }
    Arrays.sort(out);
    return out;
  }

  /** Percentile interval [q(alpha/2), q(1 - alpha/2)] of a sorted bootstrap distribution. */
  static double[] percentile(double[] sorted, double alpha) {
    int b = sorted.length;
    int lo = (int) Math.floor(alpha / 2 * (b + 1)) - 1;
    int hi = b - 1 - lo;
    lo = Math.max(0, lo);
    hi = Math.min(b - 1, hi);
    return new double[] {sorted[lo], sorted[hi]};
  }
}
