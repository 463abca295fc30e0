package dev.abfleet.controller.bisect;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.experiment.DesignRule;
import dev.abfleet.controller.experiment.SpecValidator;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;

/**
 * What a client asks to bisect: kernels in order (the first good, the last regressed on
 * {@code metric}), and the experiment every probe runs, made from {@code template}.
 *
 * @param kernels the kernels as uploaded artifacts, oldest first
 * @param labels how the client names each kernel (its local path), for reports; same length
 * @param template the probes' experiment: benchmark, selector, priority, owner, policy (boot
 *     timeout, class_by, warm-up, futility) and ONE arm whose VM shape, initrd and guest set-up
 *     every probe arm gets; its kernel is replaced by the probed ones
 * @param noiseThreshold relative change counted as noise, in (0, 1)
 * @param alpha significance level per probe, in (0, 1)
 * @param looks ascending cumulative pair counts at which a probe may stop; the last is its budget
 * @param fraction f of {@link ProbeRule}: a good probe's interval rules out f times the endpoints'
 *     regression; in (0, 1), 0 = {@link ProbeRule#DEFAULT_FRACTION}
 */
public record BisectRequest(List<ArtifactRef> kernels, List<String> labels, String metric,
    double noiseThreshold, double alpha, List<Integer> looks, ExperimentSpec template, double fraction)
    implements CborSerializable {
  /** Longest bisect id: probe experiment ids append "-&lt;good&gt;-vs-&lt;probe&gt;" to it. */
  public static final int MAX_ID_LENGTH = 100;
  static final int MAX_KERNELS = 4096;

  public BisectRequest {
    kernels = kernels == null ? List.of() : List.copyOf(kernels);
    labels = labels == null ? List.of() : List.copyOf(labels);
    metric = metric == null ? "" : metric;
    looks = looks == null ? List.of() : List.copyOf(looks);
  }

  public BisectRequest(List<ArtifactRef> kernels, List<String> labels, String metric, double noiseThreshold,
      double alpha, List<Integer> looks, ExperimentSpec template) {
    this(kernels, labels, metric, noiseThreshold, alpha, looks, template, 0);
  }

  /** The verdict policy of the endpoints' experiment; probes derive theirs ({@link ProbeRule#probePolicy}). */
  public Policy policy() {
    return new Policy(noiseThreshold, alpha, looks);
  }

  /** The id of the experiment that compares kernel {@code good} with kernel {@code probe}. */
  public static String experimentId(String bisectId, int good, int probe) {
    return bisectId + "-" + good + "-vs-" + probe;
  }

  /** Arm name of the probed kernel in a probe's experiment. */
  static String probeArm(int probe) {
    return "probe-" + probe;
  }

  /** The experiment of one probe under the bisect's own noise threshold and looks. */
  public ExperimentSpec probeSpec(int good, int probe) {
    return probeSpec(good, probe, policy());
  }

  /**
   * The experiment of one step: kernel {@code good} as baseline against kernel {@code probe},
   * judged on the metric alone under {@code step}'s noise threshold and looks (its sequential
   * design; the last look is the pair budget), e.g. {@link Bisection.Result#stepPolicy}.
   */
  public ExperimentSpec probeSpec(int good, int probe, Policy step) {
    ArmSpec shape = template.arms().get(0);
    PolicySpec p = template.policy();
    List<Integer> stepLooks = step.looks();
    PolicySpec policy = new PolicySpec(step.noiseThreshold(), alpha, stepLooks.get(stepLooks.size() - 1), p.seed(),
        p.bootTimeoutS(), List.of(metric), stepLooks, p.classBy(), p.warmupBoot(), p.futilityEffect(),
        p.futilityBeta(), p.hostQuiet());
    BenchmarkSpec b = template.benchmark();
    return new ExperimentSpec("bisect-" + good + "-vs-" + probe,
        List.of(arm(shape, "good-" + good, ArmSpec.Role.BASELINE, kernels.get(good)),
            arm(shape, probeArm(probe), ArmSpec.Role.CANDIDATE, kernels.get(probe))),
        b, template.selector(), policy, template.priority(), template.owner());
  }

  private static ArmSpec arm(ArmSpec shape, String name, ArmSpec.Role role, ArtifactRef kernel) {
    return new ArmSpec(name, role, kernel, shape.initrd(), shape.cmdlineExtra(), shape.vcpus(),
        shape.memoryMib(), shape.guest());
  }

  /** What is wrong with this request, each problem naming the field and the fix; empty = valid. */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    if (kernels.size() < 2 || kernels.size() > MAX_KERNELS) {
      out.add("kernels: " + kernels.size() + " given; a bisect needs 2 to " + MAX_KERNELS
          + ", the first good and the last regressed");
    }
    if (!labels.isEmpty() && labels.size() != kernels.size()) {
      out.add("kernels: " + labels.size() + " labels for " + kernels.size()
          + " kernels; give each kernel its label, or none");
    }
    for (int i = 0; i < kernels.size(); i++) {
      if (!kernels.get(i).sha256().matches("[0-9a-f]{64}")) {
        out.add("kernels[" + i + "].sha256: '" + kernels.get(i).sha256()
            + "' is not a lower-case hex SHA-256; upload the kernel and pass its digest");
      }
    }
    if (metric.isEmpty()) {
      out.add("metric: missing; name the metric that regressed, e.g. seq_read");
    }
    if (!(noiseThreshold > 0 && noiseThreshold < 1)) {
      out.add("noise_threshold: " + noiseThreshold + " is not in (0, 1); e.g. 0.02 for 2%");
    }
    if (!(alpha > 0 && alpha < 1)) {
      out.add("alpha: " + alpha + " is not in (0, 1); e.g. 0.05");
    }
    if (!(fraction >= 0 && fraction < 1)) {
      out.add("fraction: " + fraction + " is not in (0, 1); e.g. 0.5: a good probe rules out half the"
          + " endpoints' regression (0 = that default)");
    }
    out.addAll(lookProblems(looks));
    if (template == null || template.arms().size() != 1) {
      out.add("template.arms: " + (template == null ? 0 : template.arms().size())
          + " given; the template has exactly one arm, whose shape and guest every probe arm gets");
    } else if (!template.benchmark().metrics().isEmpty() && !template.benchmark().metrics().contains(metric)) {
      out.add("metric: " + metric + " is not among the template benchmark's metrics "
          + template.benchmark().metrics() + "; add it there or leave the list empty");
    }
    if (out.isEmpty()) {
      // The first probe's experiment stands for all of them: they differ only in kernels.
      SpecValidator.validate(probeSpec(0, 1)).forEach(p -> out.add("template: " + p));
      if (out.isEmpty()) {
        DesignRule.problem(probeSpec(0, 1), true).ifPresent(p -> out.add(p.replace("policy.looks", "looks")));
      }
    }
    return out;
  }

  private static List<String> lookProblems(List<Integer> looks) {
    boolean ok = !looks.isEmpty();
    for (int i = 0; ok && i < looks.size(); i++) {
      ok = looks.get(i) >= 2 && looks.get(i) <= 10_000 && (i == 0 || looks.get(i) > looks.get(i - 1));
    }
    return ok ? List.of() : List.of("looks: " + looks
        + " are not ascending pair counts from 2 to 10000; e.g. 10, 15, 20");
  }
}
