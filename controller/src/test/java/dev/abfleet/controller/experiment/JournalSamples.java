package dev.abfleet.controller.experiment;

import dev.abfleet.model.ArmBuild;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.GuestSetup;
import dev.abfleet.controller.plan.WorkloadSpec;
import java.util.List;
import java.util.Map;

/**
 * Persisted experiment events and a snapshot that carry every value type of the plan package
 * (artifacts, guest setup, benchmark, workload). The files under {@code journal-v1/} hold what
 * the controller wrote for these objects while the types still lived in the experiment package.
 */
final class JournalSamples {
  private JournalSamples() {}

  static ExperimentEvent.ExperimentSubmitted submitted() {
    ArtifactRef image = new ArtifactRef("c".repeat(64), "/cache/guest.cpio", 2048);
    ArtifactRef modules = new ArtifactRef("d".repeat(64), "", 4096);
    GuestSetup pinned = new GuestSetup(true, List.of("virtiofs"), "", "cache=loose", "x86_64", image, modules);
    WorkloadSpec workload = new WorkloadSpec(
        new ArtifactRef("e".repeat(64), "file:///w.cpio.gz", 99), "./run.sh", "gobench", 300);
    BenchmarkSpec benchmark = new BenchmarkSpec("", List.of("user"), 5, 200, 1, "host", 10, "cold", workload);
    ExperimentSpec spec = new ExperimentSpec("compat",
        List.of(
            new ArmSpec("base", ArmSpec.Role.BASELINE, new ArtifactRef("a".repeat(64), "/k/base", 10),
                new ArtifactRef("f".repeat(64), "/k/initrd", 20), "quiet", 2, 1024, GuestSetup.NONE),
            new ArmSpec("cand", ArmSpec.Role.CANDIDATE, new ArtifactRef("b".repeat(64), "/k/cand", 11),
                null, "", 2, 1024, pinned)),
        benchmark,
        new HostSelector("qemu", "x86_64", Map.of("rack", "r1"), List.of()),
        // 120: what an unset boot timeout was journalled as before 0 meant adaptive.
        new PolicySpec(0, 0, 4, 42, 120, List.of("user")),
        "nightly",
        "alice");
    return new ExperimentEvent.ExperimentSubmitted("compat-1", spec, 42);
  }

  /** {@link #submitted()} with the candidate's kernel built by abfleet. */
  static ExperimentEvent.ExperimentSubmitted submittedWithBuild() {
    ExperimentEvent.ExperimentSubmitted plain = submitted();
    ArmSpec cand = plain.spec().arms().get(1);
    ArmBuild build = new ArmBuild("9b1e07aa" + "0".repeat(56), "linux-source-6.1.tar.xz",
        "ef".repeat(32), List.of("slow-stat.patch"), List.of("12".repeat(32)), "abfleet-minimal", "x86_64",
        "gcc (Debian 12.2.0-14) 12.2.0", "6.1.176");
    ArmSpec built = new ArmSpec(cand.name(), cand.role(), cand.kernel(), cand.initrd(), cand.cmdlineExtra(),
        cand.vcpus(), cand.memoryMib(), cand.guest(), build);
    ExperimentSpec s = plain.spec();
    return new ExperimentEvent.ExperimentSubmitted(plain.experimentId(), new ExperimentSpec(s.name(),
        List.of(s.arms().get(0), built), s.benchmark(), s.selector(), s.policy(), s.priority(), s.owner()),
        plain.seed());
  }

  static ExperimentEvent.BlockStarted started() {
    return new ExperimentEvent.BlockStarted("compat-1-p0-a0", 0, 0, "h1", 3,
        List.of("compat-1-p0-a0-base", "compat-1-p0-a0-cand"), List.of("base", "cand"),
        "x86_64", "cpu=epyc", "");
  }

  /** The snapshot an entity takes after both events. */
  static ExperimentState snapshot() {
    return ExperimentState.empty("compat-1").apply(submitted()).apply(started());
  }
}
