package dev.abfleet.stats.changepoint;

import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Change-point detection over a nightly series (one value per night: a metric's center, or
 * the per-night change against the baseline). Pure: no I/O, no clock; randomness only from the
 * seed passed in.
 *
 * <p>Method: binary segmentation with a rank scan. In a segment, every split leaving at least
 * {@link Settings#minSegment()} values on each side is scored by the standardized Mann-Whitney
 * statistic of "before" against "after" ({@link RankScan}); the best split is tested by
 * permuting the segment's values and taking the maximum over all admissible splits each time,
 * so the p-value already accounts for having scanned every split (as in the E-Divisive
 * procedure of Matteson and James 2014, used for MongoDB's performance CI by Daly et al. 2020).
 * A significant split is recorded and both halves are searched again at the same level, until
 * no split is significant or the halves are too short.
 *
 * <p>Magnitudes are read from the final segments: once no split is left, each point's before
 * and after medians are those of the segments on either side of it between its neighbouring
 * points (not of the larger segment it was split from), and a point whose change is below
 * {@link Settings#minRelative()} is dropped, the weakest first, its neighbours' segments merged
 * and their magnitudes read again.
 *
 * <p>Why this does not flag a single spike: ranks see only an outlier's position, not its
 * size, and a segment needs {@code minSegment} values, so one extreme night is as likely under
 * permutation as anywhere else. A sustained shift moves many ranks at once.
 */
public final class ChangePoints {
  /** Below this many values, only large, clean shifts reach significance. */
  static final int LOW_POWER_N = 10;

  private ChangePoints() {}

  /** {@link #detect(double[], Settings, long)} with {@link Settings#DEFAULT}. */
  public static Detection detect(double[] series, long seed) {
    return detect(series, Settings.DEFAULT, seed);
  }

  /**
   * Finds the sustained shifts in {@code series}. Non-finite values (missing nights) are left
   * out of the test; indices in the result still refer to {@code series}. Never throws on
   * short or degenerate input: an empty result with a warning instead.
   */
  public static Detection detect(double[] series, Settings settings, long seed) {
    List<String> warnings = new ArrayList<>();
    if (series == null) {
      return new Detection(List.of(), List.of("no series given"));
    }
    int[] positions = finitePositions(series);
    double[] values = new double[positions.length];
    for (int i = 0; i < positions.length; i++) {
      values[i] = series[positions[i]];
    }
    if (positions.length < series.length) {
      warnings.add((series.length - positions.length) + " of " + series.length
          + " values are missing or not finite and were left out");
    }
    int n = values.length;
    int need = 2 * settings.minSegment();
    if (n < need) {
      warnings.add("series has " + n + " usable values; at least " + need
          + " are needed to test for a change (" + settings.minSegment() + " on each side)");
      return new Detection(List.of(), warnings);
    }
    List<ChangePoint> found = new ArrayList<>();
    Deque<int[]> segments = new ArrayDeque<>();
    segments.push(new int[] {0, n});
    while (!segments.isEmpty()) {
      int[] seg = segments.pop();
      ChangePoint cp = test(values, seg[0], seg[1], positions, settings, seed);
      if (cp == null) {
        continue;
      }
      found.add(cp);
      int split = compactIndex(positions, cp.index());
      if (split - seg[0] >= need) {
        segments.push(new int[] {seg[0], split});
      }
      if (seg[1] - split >= need) {
        segments.push(new int[] {split, seg[1]});
      }
    }
    found.sort(Comparator.comparingInt(ChangePoint::index));
    List<ChangePoint> points = finalSegments(values, positions, found, settings);
    if (points.isEmpty() && n < LOW_POWER_N) {
      warnings.add("no change found in " + n + " usable values; below " + LOW_POWER_N
          + ", only large, clean shifts can be detected");
    }
    return new Detection(points, warnings);
  }

  /**
   * {@code found} (sorted) with magnitudes from the segments between neighbouring points, less
   * those below the smallest change worth flagging.
   */
  private static List<ChangePoint> finalSegments(double[] values, int[] positions, List<ChangePoint> found,
      Settings settings) {
    List<ChangePoint> kept = new ArrayList<>(found);
    while (true) {
      List<ChangePoint> measured = new ArrayList<>(kept.size());
      for (int k = 0; k < kept.size(); k++) {
        int from = k == 0 ? 0 : compactIndex(positions, kept.get(k - 1).index());
        int split = compactIndex(positions, kept.get(k).index());
        int to = k == kept.size() - 1 ? values.length : compactIndex(positions, kept.get(k + 1).index());
        measured.add(measure(kept.get(k), Arrays.copyOfRange(values, from, split),
            Arrays.copyOfRange(values, split, to), settings.differences()));
      }
      int weakest = -1;
      for (int k = 0; k < measured.size(); k++) {
        double m = magnitude(measured.get(k), settings.differences());
        if (!Double.isNaN(m) && m < settings.minRelative()
            && (weakest < 0 || m < magnitude(measured.get(weakest), settings.differences()))) {
          weakest = k;
        }
      }
      if (weakest < 0) {
        return measured;
      }
      kept.remove(weakest);
    }
  }

  private static ChangePoint measure(ChangePoint cp, double[] before, double[] after, boolean differences) {
    double b = VerdictEngine.median(before);
    double a = VerdictEngine.median(after);
    double relative = !differences && b > 0 && a > 0 ? a / b - 1 : Double.NaN;
    return new ChangePoint(cp.index(), b, a, a - b, relative, cp.statistic(), cp.pValue());
  }

  /** What {@link Settings#minRelative()} is compared with; NaN = not judged. */
  private static double magnitude(ChangePoint cp, boolean differences) {
    return differences ? Math.abs(cp.shift()) : Math.abs(cp.relative());
  }

  /** The significant change in values[from, to), or null. */
  private static ChangePoint test(double[] values, int from, int to, int[] positions,
      Settings settings, long seed) {
    double[] seg = Arrays.copyOfRange(values, from, to);
    double[] ranks = RankScan.midRanks(seg);
    RankScan.Best best = RankScan.best(ranks, settings.minSegment());
    if (best.index() < 0 || !(best.z() > 0)) {
      return null;
    }
    // One stream per segment, fixed by the seed and the segment: results do not depend on the
    // order in which segments are searched.
    SplittableRandom random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (31L * from + to)));
    double p = RankScan.permutationP(ranks, settings.minSegment(), best.z(),
        settings.permutations(), random);
    if (p > settings.alpha()) {
      return null;
    }
    int split = locate(seg, settings.minSegment(), best.index());
    // Medians of this segment's two sides; the final ones are read once every split is found.
    return measure(new ChangePoint(positions[from + split], 0, 0, 0, 0, best.z(), p),
        Arrays.copyOfRange(seg, 0, split), Arrays.copyOfRange(seg, split, seg.length), settings.differences());
  }

  /**
   * Where the shift the rank scan found lies: the admissible split with the least total
   * absolute deviation from each side's median (ties: the one nearest the scan's). The
   * standardized rank statistic decides whether there is a change, but it can peak one night
   * early or late: with a clean step after night k, moving the last night before the step to
   * the other side costs one rank of separation and gains balance (e.g. 14 nights stepping at
   * night 8 score 3.13 at 7 and 3.10 at 8). Medians keep a single spike from moving the split.
   */
  static int locate(double[] seg, int minSegment, int scanned) {
    int bestSplit = scanned;
    double bestCost = l1Cost(seg, scanned);
    for (int k = minSegment; k <= seg.length - minSegment; k++) {
      double cost = l1Cost(seg, k);
      if (cost < bestCost - 1e-12 * Math.abs(bestCost)
          || (Math.abs(cost - bestCost) <= 1e-12 * Math.abs(bestCost)
              && Math.abs(k - scanned) < Math.abs(bestSplit - scanned))) {
        bestCost = cost;
        bestSplit = k;
      }
    }
    return bestSplit;
  }

  private static double l1Cost(double[] seg, int split) {
    return deviation(Arrays.copyOfRange(seg, 0, split)) + deviation(Arrays.copyOfRange(seg, split, seg.length));
  }

  private static double deviation(double[] v) {
    double m = VerdictEngine.median(v);
    double sum = 0;
    for (double x : v) {
      sum += Math.abs(x - m);
    }
    return sum;
  }

  private static int[] finitePositions(double[] series) {
    return java.util.stream.IntStream.range(0, series.length)
        .filter(i -> Double.isFinite(series[i])).toArray();
  }

  private static int compactIndex(int[] positions, int original) {
    return Arrays.binarySearch(positions, original);
  }
}
