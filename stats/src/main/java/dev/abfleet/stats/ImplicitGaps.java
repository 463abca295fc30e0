package dev.abfleet.stats;

import dev.abfleet.stats.WalshGaps.Gap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link AdaptiveInterval} above {@link AdaptiveSignedRank#EXACT_MAX_N} differences, where
 * the p-values come from the normal approximation: the same gaps as {@link ListedGaps}, judged
 * at the same points with the same caps, found without listing the n(n+1)/2 Walsh averages.
 * O(n) memory; locating a gap ({@link WalshGaps}) and judging it ({@link ShiftedSample}) are
 * O(n) each, and a search takes about log2(n^2) of them.
 *
 * <p>With a fixed cap the statistic is monotone in θ, so each cap's run of accepted gaps, and
 * the run where its centred statistic is within one of 0 (p = 1), are found by bisection.
 * Which cap each gap gets is found by walking θ in strides over which the tail weight cannot
 * reach a cut point ({@link ShiftedSample#stride}): a stride or two where the tail weight is
 * far from 2.6 and 3.2, shrinking strides where it crosses one.
 *
 * <p>Bisection assumes acceptance with a fixed cap is monotone along the gaps. Without repeated
 * values it is (the null mean and variance do not move with θ), and the result is the listed
 * inversion's, bit for bit. With repeated values the capped scores' mean and variance move
 * slightly from gap to gap; where that makes acceptance non-monotone near a boundary, this
 * finds a boundary of the monotone part where the listing scans gap by gap, and the estimate
 * is taken where the centred statistic passes 0, which it may then jump across.
 */
final class ImplicitGaps implements AdaptiveInterval {
  /** Consecutive gaps from, ..., to whose midpoints get the same cap. */
  private record CapRun(int cap, Gap from, Gap to) {}

  /** The test at a gap: two-sided p, and the doubled statistic minus its null mean. */
  private record Test(double p, double diff) {}

  private final double[] d;
  private final double[] sorted;
  private final WalshGaps gaps;
  private final boolean tied;
  /** Null moments of untied scores by cap ({@link AdaptiveSignedRank#untiedMoments}). */
  private final Map<Integer, double[]> untiedMoments = new HashMap<>();
  /** Intervals by alpha: the engine asks at the verdict's level and again for the report. */
  private final Map<Double, double[]> intervals = new HashMap<>();

  ImplicitGaps(double[] d) {
    this.d = Arrays.stream(d).map(x -> x + 0.0).toArray(); // -0.0 becomes 0.0
    this.sorted = this.d.clone();
    Arrays.sort(sorted);
    this.gaps = new WalshGaps(WalshAverages.of(sorted));
    this.tied = Arrays.stream(d).distinct().count() < d.length;
  }

  @Override
  public double[] interval(double alpha) {
    double[] ci = intervals.computeIfAbsent(alpha, this::search);
    return ci == null ? null : ci.clone();
  }

  @Override
  public double estimate() {
    if (gaps.min() == gaps.max()) {
      return gaps.min();
    }
    Map<Integer, Gap[]> zones = new HashMap<>();
    Gap from = null;
    Gap to = null;
    for (int cap : AdaptiveSignedRank.candidateCaps(d.length)) {
      Gap start = gaps.firstWhere(g -> test(g, cap).diff() <= 1);
      Gap end = gaps.lastWhere(g -> test(g, cap).diff() >= -1);
      Gap[] zone = end.before(start) ? new Gap[] {end, start} : new Gap[] {start, end};
      zones.put(cap, zone);
      from = from == null || zone[0].before(from) ? zone[0] : from;
      to = to == null || to.before(zone[1]) ? zone[1] : to;
    }
    // the scan of ListedGaps#estimate, over the best gaps of each run of one cap
    double best = -1;
    Gap first = null;
    Gap last = null;
    for (CapRun run : capRuns(from, to)) {
      Gap[] segment = bestOf(run, zones.get(run.cap()));
      double p = test(segment[0], run.cap()).p();
      if (p > best * (1 + AdaptiveSignedRank.TOLERANCE)) {
        best = p;
        first = segment[0];
        last = segment[1];
      } else if (p >= best * (1 - AdaptiveSignedRank.TOLERANCE)) {
        last = segment[1];
      }
    }
    double lo = first.isFirst() ? gaps.min() : first.lo();
    double hi = last.isLast() ? gaps.max() : last.hi();
    return (lo + hi) / 2.0;
  }

  private double[] search(double alpha) {
    double level = alpha * (1 + AdaptiveSignedRank.TOLERANCE);
    if (gaps.min() == gaps.max()) {
      // all d equal: only θ = d itself is never rejected
      return test(gaps.first(), d.length).p() > level ? null
          : new double[] {gaps.min(), gaps.min()};
    }
    Map<Integer, Gap[]> runs = new HashMap<>();
    Gap from = null;
    Gap to = null;
    for (int cap : AdaptiveSignedRank.candidateCaps(d.length)) {
      Gap start = gaps.firstWhere(g -> {
        Test t = test(g, cap);
        return t.diff() <= 0 || t.p() > level; // not rejected for a too-large statistic
      });
      Gap end = gaps.lastWhere(g -> {
        Test t = test(g, cap);
        return t.diff() >= 0 || t.p() > level;
      });
      if (start != null && end != null && !end.before(start)) {
        runs.put(cap, new Gap[] {start, end});
        from = from == null || start.before(from) ? start : from;
        to = to == null || to.before(end) ? end : to;
      }
    }
    if (from == null) {
      return null;
    }
    Gap low = null;
    Gap high = null;
    for (CapRun run : capRuns(from, to)) {
      Gap[] accepted = runs.get(run.cap());
      Gap[] own = accepted == null ? null : acceptedWithin(run, accepted, level);
      if (own != null) {
        low = low == null ? own[0] : low;
        high = own[1];
      }
    }
    if (low == null || low.isFirst() || high.isLast()) {
      return null; // nothing accepted, or accepted beyond every Walsh average: unbounded
    }
    return new double[] {low.lo(), high.hi()};
  }

  /**
   * The first and last gap of a run that its cap accepts, or null. With repeated values the
   * ends are checked gap by gap, as {@link ListedGaps} does.
   */
  private Gap[] acceptedWithin(CapRun run, Gap[] accepted, double level) {
    Gap start = WalshGaps.later(run.from(), accepted[0]);
    Gap end = WalshGaps.earlier(run.to(), accepted[1]);
    while (tied && !end.before(start) && !(test(start, run.cap()).p() > level)) {
      if (!start.before(end)) {
        return null;
      }
      start = gaps.next(start);
    }
    while (tied && start.before(end) && !(test(end, run.cap()).p() > level)) {
      end = gaps.previous(end); // stops at start, which is accepted
    }
    return end.before(start) ? null : new Gap[] {start, end};
  }

  /**
   * The gaps of a run where its cap's p is largest: where the run meets the cap's zone, else
   * the gaps at the end nearer the zone with the same statistic (p rises towards the zone).
   */
  private Gap[] bestOf(CapRun run, Gap[] zone) {
    int cap = run.cap();
    if (run.to().before(zone[0])) {
      double diff = test(run.to(), cap).diff();
      return new Gap[] {
          WalshGaps.later(run.from(), gaps.firstWhere(g -> test(g, cap).diff() <= diff)),
          run.to()};
    }
    if (zone[1].before(run.from())) {
      double diff = test(run.from(), cap).diff();
      return new Gap[] {run.from(),
          WalshGaps.earlier(run.to(), gaps.lastWhere(g -> test(g, cap).diff() >= diff))};
    }
    return new Gap[] {WalshGaps.later(run.from(), zone[0]), WalshGaps.earlier(run.to(), zone[1])};
  }

  /** The gaps from, ..., to, split where the cap chosen at their midpoints changes. */
  private List<CapRun> capRuns(Gap from, Gap to) {
    List<CapRun> out = new ArrayList<>();
    Gap start = from;
    while (true) {
      int cap = shifted(start).cap();
      Gap change = nextCap(start, cap, to);
      if (change == null) {
        out.add(new CapRun(cap, start, to));
        return out;
      }
      out.add(new CapRun(cap, start, gaps.previous(change)));
      start = change;
    }
  }

  /** The first gap after g, up to {@code to}, whose cap is not {@code cap}; null if none. */
  private Gap nextCap(Gap g, int cap, Gap to) {
    ShiftedSample at = shifted(g);
    while (true) {
      Gap next = gaps.firstJudgedBeyond(g, at.theta + at.stride());
      if (next == null || to.before(next)) {
        return null;
      }
      at = shifted(next);
      if (at.cap() != cap) {
        return next;
      }
      g = next;
    }
  }

  private ShiftedSample shifted(Gap g) {
    return new ShiftedSample(sorted, d, g.theta());
  }

  /** The test of centre θ at gap g with this cap (normal approximation: n &gt; 100). */
  private Test test(Gap g, int cap) {
    ShiftedSample at = shifted(g);
    long s = at.statistic(cap);
    // untied: the scores are those of ranks 1..n at every θ, as in pUntied
    double[] moments = tied
        ? AdaptiveSignedRank.moments(AdaptiveSignedRank.scores2(at.ranks2(), cap))
        : untiedMoments.computeIfAbsent(cap, c -> AdaptiveSignedRank.untiedMoments(d.length, c));
    return new Test(AdaptiveSignedRank.approxP(moments, s), s - moments[0] / 2.0);
  }
}
