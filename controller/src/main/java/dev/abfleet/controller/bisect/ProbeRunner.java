package dev.abfleet.controller.bisect;

import dev.abfleet.stats.Policy;
import java.util.List;

/**
 * Runs one step of a bisect (the endpoints, or a probe) as ONE experiment. A probe has the bisect's
 * sequential looks: the controller stops it at the first look where the metric is decided (alpha
 * spent over the looks, O'Brien-Fleming), or at the last look. The endpoints' experiment has only
 * the last look ({@link Bisection#endpointsPolicy}): it runs the full budget to measure R.
 */
@FunctionalInterface
public interface ProbeRunner {
  /**
   * The bisected metric's comparison when the experiment ended.
   *
   * @param experimentId the controller's id of the probe's experiment
   * @param pairs completed pairs when it ended (a look's pair count)
   * @param boots boots the experiment recorded, those of pairs still incomplete when it stopped
   *     included
   * @param verdict "improved", "regressed", "no_change" or "inconclusive" (direction applied)
   * @param better "higher" or "lower", as the harness reports the metric
   * @param change relative change probe/good - 1 (NaN when not computable)
   * @param ciLow lower end of the interval for change, at the level of the deciding look
   * @param ciHigh upper end of that interval
   * @param reasons why the verdict is what it is
   */
  record Finished(String experimentId, int pairs, int boots, String verdict, String better, double change,
      double ciLow, double ciHigh, List<String> reasons) {
    public Finished {
      reasons = List.copyOf(reasons);
    }
  }

  /**
   * One experiment of artifact {@code good} (baseline) against {@code candidate} under
   * {@code policy}: its noise threshold, alpha and looks (the last look is the pair budget).
   */
  Finished run(int good, int candidate, Policy policy);
}
