package dev.abfleet.controller.bisect;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Binary search for the first regressing artifact in an ordered list whose first artifact is
 * good and whose last regressed. Each step compares the last known-good artifact with the
 * middle of the open range. An inconclusive probe ends the search with the range still open:
 * which side the probed artifact belongs to would be a guess.
 *
 * <p>The search is a value ({@link Search}) advanced one probe at a time, so that it can be
 * driven synchronously ({@link #search}) or by an actor that waits for each probe's experiment.
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
    public Result {
      steps = List.copyOf(steps);
    }

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

    /** True once nothing is left to probe: found, or ended open by an inconclusive probe. */
    public boolean done() {
      return found() || ambiguous >= 0;
    }

    /** The next probe (compared with {@link #lastGood()}); empty when {@link #done()}. */
    public OptionalInt nextProbe() {
      return done() ? OptionalInt.empty() : OptionalInt.of((lastGood + firstBad) >>> 1);
    }

    /**
     * The search after {@code result} of probing {@link #nextProbe()} against {@link #lastGood()}.
     *
     * @throws IllegalStateException when the search is done already
     */
    public Result after(ProbeResult result) {
      int mid = nextProbe().orElseThrow(() -> new IllegalStateException("the search is over"));
      List<Step> more = new ArrayList<>(steps);
      more.add(new Step(lastGood, mid, result));
      return switch (result.outcome()) {
        case GOOD -> new Result(mid, firstBad, -1, more);
        case BAD -> new Result(lastGood, mid, -1, more);
        case INCONCLUSIVE -> new Result(lastGood, firstBad, mid, more);
      };
    }
  }

  /** The search over {@code count} artifacts before any probe. */
  public static Result start(int count) {
    if (count < 2) {
      throw new IllegalArgumentException("bisect needs at least 2 artifacts, got " + count);
    }
    return new Result(0, count - 1, -1, List.of());
  }

  /** ceil(log2(count - 1)): the most probes a search over {@code count} artifacts makes. */
  public static int maxProbes(int count) {
    int gaps = Math.max(1, count - 1);
    return 32 - Integer.numberOfLeadingZeros(gaps - 1);
  }

  /**
   * Searches {@code count} artifacts (index 0 good, index count-1 regressed), probing at most
   * ceil(log2(count - 1)) times.
   */
  public static Result search(int count, Probe probe) {
    Result r = start(count);
    while (!r.done()) {
      r = r.after(probe.compare(r.lastGood(), r.nextProbe().getAsInt()));
    }
    return r;
  }
}
