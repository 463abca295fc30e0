package dev.abfleet.controller.experiment;

import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import java.util.ArrayList;
import java.util.List;

/** Specs and outcomes for tests. */
public final class Specs {
  private Specs() {}

  public static ExperimentSpec ab(int pairs, long seed) {
    return new ExperimentSpec("ab",
        List.of(
            new ArmSpec("base", ArmSpec.Role.BASELINE, new ArtifactRef("a".repeat(64), "/k/base", 0), null, "", 1, 512),
            new ArmSpec("cand", ArmSpec.Role.CANDIDATE, new ArtifactRef("b".repeat(64), "/k/cand", 0), null, "", 1, 512)),
        new BenchmarkSpec("", List.of("metadata_stat", "seq_read"), 3, 100, 0),
        HostSelector.any(),
        new PolicySpec(0, 0, pairs, seed, 0, List.of("metadata_stat")),
        "pr");
  }

  /** An ok boot: three iterations around {@code stat} ops/s and a steady seq_read. */
  public static RunOutcome ok(String runId, String host, long epoch, double stat) {
    List<Sample> samples = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      samples.add(new Sample("metadata_stat", stat * (1 + 0.001 * i), "ops/s", "higher", i, false));
      samples.add(new Sample("seq_read", 500 + i, "MiB/s", "higher", i, false));
    }
    return outcome(runId, host, epoch, RunOutcome.Status.OK, samples, "");
  }

  public static RunOutcome failed(String runId, String host, long epoch, RunOutcome.Status status) {
    return outcome(runId, host, epoch, status, List.of(), status.wire());
  }

  private static RunOutcome outcome(String runId, String host, long epoch, RunOutcome.Status status,
      List<Sample> samples, String message) {
    return new RunOutcome(runId, "", host, 0, 0, epoch, status, "tcg", "qemu", 100, 1000, 5,
        "6.1.0", samples, message, "");
  }
}
