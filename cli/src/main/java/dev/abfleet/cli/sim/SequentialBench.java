package dev.abfleet.cli.sim;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.model.Limits;

import dev.abfleet.bench.sim.SimFleet;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimBootRecord;
import dev.abfleet.worker.sim.SimModel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import dev.abfleet.bench.calibrate.Wilson;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Sequential stopping measured through the whole fleet path: an embedded controller and sim
 * workers, a batch of A/B experiments with a large simulated effect and a batch of A/A
 * experiments, each with the same looks. Reports where they stopped and how often A/A
 * experiments got a false verdict, against the engine's family-wise level.
 */
final class SequentialBench {
  /**
   * @param workers sim hosts
   * @param experiments experiments per batch (A/B and A/A each)
   * @param looks the policy's looks; the last is the most pairs an experiment runs
   * @param metric the metric the A/B candidate changes
   * @param effect the candidate's factor on {@code metric}, e.g. 0.7 for -30%
   * @param alpha family-wise level of every experiment
   * @param seed seeds the sim model and each experiment's pair order
   */
  record Options(int workers, int experiments, List<Integer> looks, String metric, double effect,
      double alpha, long seed, int timeoutS, double futility) {
    /** With the default futility stop. */
    Options(int workers, int experiments, List<Integer> looks, String metric, double effect,
        double alpha, long seed, int timeoutS) {
      this(workers, experiments, looks, metric, effect, alpha, seed, timeoutS,
          dev.abfleet.stats.Policy.DEFAULT_FUTILITY_EFFECT);
    }

    String commandLine(double timeScale) {
      return String.format(Locale.ROOT, "abfleet bench sequential --workers %d --experiments %d --looks %s"
          + " --metric %s --effect %s --alpha %s --futility %s --seed %d --time-scale %s", workers, experiments,
          String.join(",", looks.stream().map(String::valueOf).toList()), metric, effect, alpha, futility, seed,
          timeScale);
    }
  }

  /** One batch's outcome: per experiment, the pairs it used and whether a gating row claimed a change. */
  record Batch(List<Experiment> experiments) {
    int completed() {
      return (int) experiments.stream().filter(e -> e.getState().equals("completed")).count();
    }

    double meanPairs() {
      return experiments.stream().mapToInt(Experiment::getPairsDone).average().orElse(Double.NaN);
    }

    /** Experiments that stopped at each look (by pairs done). */
    int[] stoppedAt(List<Integer> looks) {
      int[] at = new int[looks.size()];
      experiments.forEach(e -> {
        int i = looks.indexOf(e.getPairsDone());
        if (i >= 0) {
          at[i]++;
        }
      });
      return at;
    }

    /** Experiments with at least one gating comparison called improved or regressed. */
    int claimedChange() {
      return (int) experiments.stream().filter(e -> e.getComparisonsList().stream()
          .filter(Comparison::getGating)
          .anyMatch(c -> c.getVerdict().equals("improved") || c.getVerdict().equals("regressed"))).count();
    }

    /** Experiments whose comparison of {@code metric} ended no_change. */
    int noChangeOn(String metric) {
      return (int) experiments.stream().filter(e -> e.getComparisonsList().stream()
          .anyMatch(c -> c.getMetric().equals(metric) && c.getVerdict().equals("no_change"))).count();
    }

    /** Experiments whose overall verdict is {@code v}. */
    int overall(String v) {
      return (int) experiments.stream().filter(e -> e.getOverall().equals(v)).count();
    }

    /** Experiments whose gate is {@code g} (pass, fail, inconclusive). */
    int gate(String g) {
      return (int) experiments.stream().filter(e -> e.getGate().equals(g)).count();
    }
  }

  record Result(Batch ab, Batch aa) {}

  private SequentialBench() {}

  static Result run(Options o, SimModel model, Path home, PrintStream err) throws IOException, InterruptedException {
    ConcurrentLinkedQueue<SimBootRecord> boots = new ConcurrentLinkedQueue<>();
    try (ControllerNode controller = ControllerNode.start(
        ControllerSettings.inMemory().withLimits(Limits.unlimited()))) {
      String target = "127.0.0.1:" + controller.grpcPort();
      try (SimFleet fleet = SimFleet.start(target, o.workers(), "sim-", model, Map.of(), home, boots::add);
          ExperimentClient client = new ExperimentClient(target)) {
        SimFleet.awaitHosts(target, fleet.size(), 60);
        Artifact base = SimArtifacts.kernel(home.resolve("kernels"), "base");
        Artifact cand = SimArtifacts.kernel(home.resolve("kernels"), "cand");
        err.println("abfleet bench: SIMULATION: " + o.experiments() + " A/B experiments (" + o.metric() + " x"
            + o.effect() + ") and " + o.experiments() + " A/A experiments on " + o.workers() + " sim workers");
        Batch ab = batch(client, o, "ab", base, cand, "sim.effect." + o.metric() + "=" + o.effect(), boots);
        Batch aa = batch(client, o, "aa", base, cand, "", boots);
        return new Result(ab, aa);
      }
    }
  }

  private static Batch batch(ExperimentClient client, Options o, String kind, Artifact base, Artifact cand,
      String candidateArgs, ConcurrentLinkedQueue<SimBootRecord> boots) throws InterruptedException {
    Map<String, ExperimentSpec> specs = new LinkedHashMap<>();
    for (int i = 0; i < o.experiments(); i++) {
      Policy.Builder policy = Policy.newBuilder().setAlpha(o.alpha()).setFutilityEffect(o.futility())
          .setSeed(o.seed() * 1_000_003L + i + 1 + (kind.equals("aa") ? 500_000L : 0));
      o.looks().forEach(policy::addLooks);
      specs.put(String.format(Locale.ROOT, "seq-%s-%03d", kind, i + 1), ExperimentSpec.newBuilder()
          .setName("seq-" + kind + "-" + (i + 1))
          .addArms(Arm.newBuilder().setName("base").setRole("baseline").setBoot(BootSpec.newBuilder().setKernel(base)))
          .addArms(Arm.newBuilder().setName("cand").setRole("candidate").setBoot(BootSpec.newBuilder().setKernel(cand).setCmdlineExtra(candidateArgs)))
          .setBenchmark(Benchmark.newBuilder().setIterations(3).setIterationMs(100))
          .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
          .setPolicy(policy)
          .setPriority("adhoc")
          .build());
    }
    return new Batch(SchedulerBench.submitAndAwait(client, specs, o.timeoutS(), boots).experiments());
  }

  /**
   * Prints the figures and the two checks; true when both hold: the A/B batch stops before its
   * last look in most experiments, and the A/A false-verdict rate is not significantly above alpha.
   */
  static boolean print(Options o, String modelLine, double timeScale, Result r, PrintStream out) {
    int last = o.looks().get(o.looks().size() - 1);
    out.println("SIMULATION: abfleet bench sequential -- simulated boots (hypervisor sim), not measurements");
    out.println("command:      " + o.commandLine(timeScale));
    out.println("workers:      " + o.workers() + " sim hosts; " + modelLine);
    out.println("design:       looks " + o.looks() + " (O'Brien-Fleming spending), alpha " + o.alpha()
        + " family-wise over every metric, noise threshold 2%, " + (o.futility() > 0
            ? String.format(Locale.ROOT, "futility stop at %.3g%% (beta 10%%, linear spending)", 100 * o.futility())
            : "no futility stop"));
    describe(out, "A/B (" + o.metric() + " x" + o.effect() + ")", o, r.ab());
    describe(out, "A/A (same kernel)", o, r.aa());
    int[] abStops = r.ab().stoppedAt(o.looks());
    int early = r.ab().experiments().size() - abStops[abStops.length - 1];
    boolean large = Math.abs(Math.log(o.effect())) >= Math.log(1.2);
    boolean stopsEarly = !large || early * 10 >= r.ab().experiments().size() * 9;
    out.println((!large ? "     " : stopsEarly ? "PASS " : "FAIL ") + String.format(Locale.ROOT,
        "A/B with a large effect stops before max_pairs (%d) in at least 90%% of experiments: %d of %d, mean %.1f pairs%s",
        last, early, r.ab().experiments().size(), r.ab().meanPairs(), large ? "" : " (not checked: effect below 20%)"));
    boolean futilityBounded = true;
    if (o.futility() > 0) {
      int abN = r.ab().experiments().size();
      int missed = r.ab().noChangeOn(o.metric());
      double[] mci = Wilson.interval(missed, abN);
      boolean applies = Math.abs(Math.log(o.effect())) >= Math.log1p(o.futility()) - 1e-9;
      futilityBounded = !applies || mci[0] <= 0.10;
      out.println((applies ? (futilityBounded ? "PASS " : "FAIL ") : "     ") + String.format(Locale.ROOT,
          "A/B: %s, really changed, called no_change %d of %d (%.1f%%, 95%% CI %.1f-%.1f%%); bound for a change"
              + " of at least the futility effect: beta 10%% (lower CI bound <= beta)%s", o.metric(), missed, abN,
          100.0 * missed / abN, 100 * mci[0], 100 * mci[1], applies ? "" : " (not checked: change below it)"));
    }
    int n = r.aa().experiments().size();
    int k = r.aa().claimedChange();
    double[] ci = Wilson.interval(k, n);
    boolean bounded = ci[0] <= o.alpha();
    out.println((bounded ? "PASS " : "FAIL ") + String.format(Locale.ROOT,
        "A/A false verdicts %d of %d (%.1f%%, 95%% CI %.1f-%.1f%%) not above alpha %.0f%% (lower CI bound <= alpha)",
        k, n, 100.0 * k / n, 100 * ci[0], 100 * ci[1], 100 * o.alpha()));
    return stopsEarly && bounded && futilityBounded && r.ab().completed() == r.ab().experiments().size()
        && r.aa().completed() == n;
  }

  private static void describe(PrintStream out, String what, Options o, Batch b) {
    int[] at = b.stoppedAt(o.looks());
    StringBuilder stops = new StringBuilder();
    for (int i = 0; i < at.length; i++) {
      stops.append(i == 0 ? "" : ", ").append(o.looks().get(i)).append(" pairs: ").append(at[i]);
    }
    out.println(String.format(Locale.ROOT, "%-13s %d of %d completed; stopped at %s; mean %.1f pairs;"
        + " overall regressed %d, improved %d, no_change %d, holds %d, inconclusive %d; gate pass %d, fail %d,"
        + " inconclusive %d", what + ":", b.completed(),
        b.experiments().size(), stops, b.meanPairs(), b.overall("regressed"), b.overall("improved"),
        b.overall("no_change"), b.overall("holds"), b.overall("inconclusive"), b.gate("pass"), b.gate("fail"),
        b.gate("inconclusive")));
  }
}
