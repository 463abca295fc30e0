package dev.abfleet.controller.bisect;

import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Binary search for the first regressing artifact in an ordered list whose first artifact is
 * good and whose last regressed. The first step compares the endpoints (artifact 0 against the
 * last), which measures the regression R to find; a search whose endpoints show no regression
 * stops there. Each further step compares the good endpoint with the middle of the open range
 * and classifies the probe by which end it resembles ({@link ProbeRule}). An inconclusive probe
 * ends the search with the range still open: which side the probed artifact belongs to would be
 * a guess.
 *
 * <p>The search is a value ({@link Result}) advanced one probe at a time, so that it can be
 * driven synchronously ({@link #search}) or by an actor that waits for each probe's experiment.
 */
public final class Bisection {
  private Bisection() {}

  /** One comparison the search made: artifact {@code good} (the baseline) against {@code probe}. */
  public record Step(int good, int probe, ProbeResult result) {}

  /**
   * @param count artifacts in the list
   * @param fraction f of {@link ProbeRule}, in (0, 1)
   * @param lastGood highest index shown (or given) not to regress
   * @param firstBad lowest index shown (or given) to regress; the answer when {@link #found()}
   * @param ambiguous the probe that came back inconclusive, or -1
   * @param steps the comparisons in the order made; the first is the endpoints'
   */
  public record Result(int count, double fraction, int lastGood, int firstBad, int ambiguous, List<Step> steps) {
    public Result {
      steps = List.copyOf(steps);
    }

    /** True once the endpoints' experiment has finished. */
    public boolean endpointsMeasured() {
      return !steps.isEmpty();
    }

    /** True when the endpoints' experiment did not show the regression: nothing to bisect. */
    public boolean noRegression() {
      return endpointsMeasured() && steps.get(0).result().outcome() != Outcome.BAD;
    }

    /** The endpoints' comparison; null before it finished. */
    public ProbeResult endpoints() {
      return endpointsMeasured() ? steps.get(0).result() : null;
    }

    /** R: the relative change last/first - 1 the endpoints' experiment measured; NaN before. */
    public double endpointChange() {
      return endpointsMeasured() ? steps.get(0).result().change() : Double.NaN;
    }

    /** True when the first regressing artifact is pinned down: lastGood + 1 == firstBad. */
    public boolean found() {
      return endpointsMeasured() && !noRegression() && firstBad == lastGood + 1;
    }

    /** Experiments run: one per step (the endpoints' included). */
    public int experiments() {
      return (int) steps.stream().filter(s -> !s.result().experiment().isEmpty()).count();
    }

    public int pairs() {
      return steps.stream().mapToInt(s -> s.result().pairs()).sum();
    }

    /** Boots the steps' experiments recorded. */
    public int boots() {
      return steps.stream().mapToInt(s -> s.result().boots()).sum();
    }

    /** True once nothing is left to probe: found, no regression, or ended open by an inconclusive probe. */
    public boolean done() {
      return noRegression() || found() || ambiguous >= 0;
    }

    /** The baseline of every step: the good endpoint. */
    public int baseline() {
      return 0;
    }

    /**
     * The next artifact to compare with {@link #baseline()}: the last one (the endpoints'
     * experiment) first, then the middle of the open range; empty when {@link #done()}.
     */
    public OptionalInt nextProbe() {
      if (done()) {
        return OptionalInt.empty();
      }
      return OptionalInt.of(endpointsMeasured() ? (lastGood + firstBad) >>> 1 : count - 1);
    }

    /**
     * The verdict policy of the next step's experiment, from the bisect's: the endpoints' is
     * {@link #endpointsPolicy}, a probe's {@link ProbeRule#probePolicy}.
     */
    public Policy stepPolicy(Policy bisect) {
      return endpointsMeasured() ? ProbeRule.probePolicy(bisect, endpointChange(), fraction) : endpointsPolicy(bisect);
    }

    /** The next step's result from its finished experiment under {@link #stepPolicy}. */
    public ProbeResult judge(ProbeRunner.Finished f, Policy bisect) {
      return endpointsMeasured()
          ? ProbeRule.probe(f, stepPolicy(bisect), endpointChange(), fraction)
          : ProbeRule.endpoints(f, endpointsPolicy(bisect));
    }

    /**
     * The search after {@code result} of comparing {@link #nextProbe()} with {@link #baseline()}.
     *
     * @throws IllegalStateException when the search is done already
     */
    public Result after(ProbeResult result) {
      int probe = nextProbe().orElseThrow(() -> new IllegalStateException("the search is over"));
      List<Step> more = new ArrayList<>(steps);
      more.add(new Step(baseline(), probe, result));
      if (!endpointsMeasured()) {
        return new Result(count, fraction, lastGood, firstBad, -1, more);
      }
      return switch (result.outcome()) {
        case GOOD -> new Result(count, fraction, probe, firstBad, -1, more);
        case BAD -> new Result(count, fraction, lastGood, probe, -1, more);
        case INCONCLUSIVE -> new Result(count, fraction, lastGood, firstBad, probe, more);
      };
    }
  }

  /**
   * The endpoints' experiment: the bisect's threshold and alpha with its last look as the only
   * one, so it always runs the full pair budget. R sets every probe's line f·R, and a stop at the
   * first look that merely rules out no change leaves R imprecise (a 5% step measured as -3.4%
   * [-6.7%, -0.0%] after 30 of 90 pairs moved the line to -1.7%).
   */
  public static Policy endpointsPolicy(Policy bisect) {
    List<Integer> looks = bisect.looks();
    return bisect.withLooks(looks.isEmpty() ? looks : List.of(looks.get(looks.size() - 1)));
  }

  /** The search over {@code count} artifacts before any step, f = {@code fraction} (0 = default). */
  public static Result start(int count, double fraction) {
    if (count < 2) {
      throw new IllegalArgumentException("bisect needs at least 2 artifacts, got " + count);
    }
    return new Result(count, ProbeRule.fractionOrDefault(fraction), 0, count - 1, -1, List.of());
  }

  /**
   * ceil(log2(count - 1)): the most probes a search over {@code count} artifacts makes after the
   * endpoints' experiment.
   */
  public static int maxProbes(int count) {
    int gaps = Math.max(1, count - 1);
    return 32 - Integer.numberOfLeadingZeros(gaps - 1);
  }

  /**
   * Searches {@code count} artifacts (index 0 good, index count-1 regressed) with probes already
   * classified by {@code probe}: the endpoints first, then at most ceil(log2(count - 1)) probes.
   */
  public static Result search(int count, Probe probe) {
    Result r = start(count, 0);
    while (!r.done()) {
      r = r.after(probe.compare(r.baseline(), r.nextProbe().getAsInt()));
    }
    return r;
  }

  /**
   * Searches {@code count} artifacts, each step one experiment of {@code runner} under
   * {@code policy} (the endpoints') or the probes' policy derived from it, classified by
   * {@link ProbeRule} with fraction {@code fraction} (0 = default).
   */
  public static Result search(int count, double fraction, ProbeRunner runner, Policy policy) {
    Result r = start(count, fraction);
    while (!r.done()) {
      int probe = r.nextProbe().getAsInt();
      r = r.after(r.judge(runner.run(r.baseline(), probe, r.stepPolicy(policy)), policy));
    }
    return r;
  }
}
