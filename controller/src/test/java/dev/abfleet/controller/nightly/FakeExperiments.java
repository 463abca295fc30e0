package dev.abfleet.controller.nightly;

import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntToDoubleFunction;

/**
 * A controller whose experiment number i (in submission order) completes with the candidate
 * center {@code center(i)} of metadata_stat against a baseline of 1000, its interval the change
 * ± {@code halfWidth(i)} (0.02 unless given); an interval wider than ±10% is inconclusive. While
 * {@link #hold} is set, experiments stay running.
 */
final class FakeExperiments implements Experiments {
  final List<String> submitted = new CopyOnWriteArrayList<>();
  final Map<String, ExperimentSpec> specs = new ConcurrentHashMap<>();
  private final IntToDoubleFunction center;
  private final IntToDoubleFunction halfWidth;
  volatile boolean hold;

  FakeExperiments(IntToDoubleFunction center) {
    this(center, i -> 0.02);
  }

  FakeExperiments(IntToDoubleFunction center, IntToDoubleFunction halfWidth) {
    this.center = center;
    this.halfWidth = halfWidth;
  }

  @Override
  public CompletionStage<String> submit(String id, ExperimentSpec spec) {
    if (specs.putIfAbsent(id, spec) == null) {
      submitted.add(id);
    }
    return CompletableFuture.completedFuture(id);
  }

  @Override
  public CompletionStage<Experiment> get(String id) {
    ExperimentSpec spec = specs.get(id);
    if (spec == null) {
      return CompletableFuture.completedFuture(Experiment.newBuilder().setExperimentId(id).setState("unknown").build());
    }
    if (hold) {
      return CompletableFuture.completedFuture(Experiment.newBuilder().setExperimentId(id).setSpec(spec)
          .setState("running").build());
    }
    int i = submitted.indexOf(id);
    double c = center.applyAsDouble(i);
    double change = c / 1000 - 1;
    double w = halfWidth.applyAsDouble(i);
    String verdict = w > 0.10 ? "inconclusive" : change < -0.05 ? "regressed" : change > 0.05 ? "improved" : "no_change";
    return CompletableFuture.completedFuture(Experiment.newBuilder().setExperimentId(id).setSpec(spec)
        .setState("completed").setOverall(verdict)
        .setGate(switch (verdict) {
          case "regressed" -> "fail";
          case "inconclusive" -> "inconclusive";
          default -> "pass";
        })
        .addComparisons(Comparison.newBuilder().setArm("candidate").setMetric("metadata_stat").setUnit("ops/s")
            .setBetter("higher").setBaselineCenter(1000).setCandidateCenter(c).setChange(change)
            .setCiLow(change - w).setCiHigh(change + w).setVerdict(verdict).setGating(true))
        .build());
  }
}
