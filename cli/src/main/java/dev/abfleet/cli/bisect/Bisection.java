package dev.abfleet.cli.bisect;

import java.util.ArrayList;
import java.util.List;

/**
 * Binary search for the first regressing artifact in an ordered list whose first artifact is
 * good and whose last regressed. Each step compares the last known-good artifact with the
 * middle of the open range. An inconclusive probe ends the search with the range still open:
 * which side the probed artifact belongs to would be a guess.
 */
public final class Bisection {
  private Bisection() {}

  /** One comparison the search made. */
  public record Step(int good, int probe, ProbeResult result) {}

  /**
   * @param lastGood highest index shown (or given) not to regress
   * @param firstBad lowest index shown (or given) to regress; the answer when {@link #found()}
   * @param ambiguous the probe that came back inconclusive, or -1
   * @param steps the comparisons in the order made
   */
  public record Result(int lastGood, int firstBad, int ambiguous, List<Step> steps) {
    /** True when the first regressing artifact is pinned down: lastGood + 1 == firstBad. */
    public boolean found() {
      return firstBad == lastGood + 1;
    }

    /** Experiments run: one per probe. */
    public int experiments() {
      return (int) steps.stream().filter(s -> !s.result().experiment().isEmpty()).count();
    }

    public int pairs() {
      return steps.stream().mapToInt(s -> s.result().pairs()).sum();
    }

    /** Boots the probes' experiments recorded. */
    public int boots() {
      return steps.stream().mapToInt(s -> s.result().boots()).sum();
    }
  }

  /**
   * Searches {@code count} artifacts (index 0 good, index count-1 regressed), probing at most
   * ceil(log2(count - 1)) times.
   */
  public static Result search(int count, Probe probe) {
    if (count < 2) {
      throw new IllegalArgumentException("bisect needs at least 2 artifacts, got " + count);
    }
    int lo = 0;
    int hi = count - 1;
    List<Step> steps = new ArrayList<>();
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      ProbeResult r = probe.compare(lo, mid);
      steps.add(new Step(lo, mid, r));
      switch (r.outcome()) {
        case GOOD -> lo = mid;
        case BAD -> hi = mid;
        case INCONCLUSIVE -> {
          return new Result(lo, hi, mid, List.copyOf(steps));
        }
        default -> throw new IllegalStateException("unknown outcome " + r.outcome());
      }
    }
    return new Result(lo, hi, -1, List.copyOf(steps));
  }
}
