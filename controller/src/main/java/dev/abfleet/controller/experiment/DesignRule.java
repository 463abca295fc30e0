package dev.abfleet.controller.experiment;

import dev.abfleet.stats.DesignCheck;
import java.util.List;
import java.util.Optional;

/**
 * The design check ({@link DesignCheck}) of a submission at the controller's edge: an experiment
 * whose design cannot reach any verdict is refused before anything is leased or booted. The same
 * rule and words as {@code abfleet ab}, with the spec's field names as the fix. An A/A experiment
 * (every arm boots the baseline's kernel, initrd, command line and guest) measures noise and decides
 * nothing, so it is not checked.
 */
public final class DesignRule {
  private DesignRule() {}

  /**
   * The check of this spec's design (pairs or looks, alpha, gating family, futility).
   *
   * @param gateOnly only the gating verdicts count (a bisect probe is judged on its metric alone)
   */
  public static DesignCheck.Result check(ExperimentSpec spec, boolean gateOnly) {
    PolicySpec p = spec.policy();
    List<String> metrics = spec.benchmark().metrics();
    List<String> gating = p.gatingMetrics().isEmpty() ? metrics
        : p.gatingMetrics().stream().filter(g -> metrics.isEmpty() || metrics.contains(g)).toList();
    long candidates = spec.arms().stream().filter(a -> a.role() == ArmSpec.Role.CANDIDATE).count();
    boolean ceiling = spec.arms().stream().anyMatch(a -> a.role() == ArmSpec.Role.CEILING);
    return DesignCheck.check(new DesignCheck.Design(p.looks().isEmpty() ? List.of(p.pairs()) : p.looks(),
        p.alpha(), gating.size(), (int) candidates, !gateOnly && (ceiling || gating.size() < metrics.size()),
        p.futilityEffect(), p.futilityBeta(), !p.looks().isEmpty()));
  }

  /** The refusal, e.g. "policy: pairs 1 cannot decide (...); use policy.pairs 6 or more"; empty when it can. */
  public static Optional<String> problem(ExperimentSpec spec) {
    return problem(spec, false);
  }

  /** As {@link #problem(ExperimentSpec)}; see {@link #check} for {@code gateOnly}. */
  public static Optional<String> problem(ExperimentSpec spec, boolean gateOnly) {
    if (aa(spec)) {
      return Optional.empty();
    }
    DesignCheck.Result r = check(spec, gateOnly);
    return r.outcome() == DesignCheck.Outcome.REFUSE
        ? Optional.of("policy: " + r.refusal("policy.pairs", "policy.looks")) : Optional.empty();
  }

  /** True when every arm boots what the baseline boots: names and roles aside, the same arm. */
  static boolean aa(ExperimentSpec spec) {
    List<ArmSpec> arms = spec.arms();
    return arms.size() > 1 && arms.stream().allMatch(a -> a.kernel() != null && arms.get(0).kernel() != null
        && a.kernel().sha256().equals(arms.get(0).kernel().sha256())
        && java.util.Objects.equals(a.initrd(), arms.get(0).initrd())
        && a.cmdlineExtra().equals(arms.get(0).cmdlineExtra()) && a.guest().equals(arms.get(0).guest()));
  }
}
