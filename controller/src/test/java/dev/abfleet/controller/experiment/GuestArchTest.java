package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.GuestSetup;
import dev.abfleet.controller.plan.WorkloadSpec;
import dev.abfleet.controller.schedule.FleetSummary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Guest architectures: one per experiment, matched against what each host's hypervisor boots. */
class GuestArchTest {

  private static ArmSpec arm(String name, ArmSpec.Role role, String arch) {
    return new ArmSpec(name, role, new ArtifactRef("a".repeat(64), "/k/" + name, 0), null, "", 1, 512,
        new GuestSetup(false, List.of(), "", "", arch, new ArtifactRef("c".repeat(64), "/img/" + arch, 0)));
  }

  private static ExperimentSpec spec(String baseArch, String candArch, String selectorArch) {
    return new ExperimentSpec("ab",
        List.of(arm("base", ArmSpec.Role.BASELINE, baseArch), arm("cand", ArmSpec.Role.CANDIDATE, candArch)),
        new BenchmarkSpec("", List.of("metadata_stat"), 3, 100, 0),
        new HostSelector("qemu", selectorArch, Map.of(), List.of()),
        new PolicySpec(0, 0, 4, 1, 0, List.of()), "pr");
  }

  private static HostCapabilities host(String id, String arch, Map<String, List<String>> guestArches) {
    return new HostCapabilities(id, arch, 2, 4096, Map.of(), Map.of("qemu", List.of("tcg")), "", "", "",
        Map.of(), Map.of(), guestArches);
  }

  @Test
  void armsOfOneArchitectureAreValidAndSelectHostsThatBootIt() {
    ExperimentSpec spec = spec("aarch64", "aarch64", "");
    assertThat(SpecValidator.validate(spec)).isEmpty();
    assertThat(spec.selector().guestArch()).isEqualTo("aarch64");
    assertThat(spec.selector().matches(host("x86-only", "x86_64", Map.of()))).isFalse();
    assertThat(spec.selector().matches(host("x86-emulating", "x86_64", Map.of("qemu", List.of("x86_64", "aarch64")))))
        .isTrue();
    assertThat(spec.selector().matches(host("arm", "aarch64", Map.of()))).isTrue();
  }

  @Test
  void armsOfDifferentArchitecturesAreRejectedWithTheArms() {
    assertThat(SpecValidator.validate(spec("x86_64", "aarch64", "")))
        .singleElement().asString()
        .contains("arms: kernels of different architectures {aarch64=[cand], x86_64=[base]}");
  }

  @Test
  void aKernelAgainstASelectorOfTheOtherArchitectureIsRejected() {
    assertThat(SpecValidator.validate(spec("x86_64", "x86_64", "aarch64")))
        .singleElement().asString()
        .startsWith("selector.arch: aarch64 hosts were selected but the arms' kernels are x86_64;");
  }

  @Test
  void anUnknownArchitectureAndABadImageHashAreNamed() {
    ArmSpec bad = new ArmSpec("cand", ArmSpec.Role.CANDIDATE, new ArtifactRef("a".repeat(64), "/k", 0), null, "", 1,
        512, new GuestSetup(false, List.of(), "", "", "riscv64", new ArtifactRef("xyz", "/img", 0)));
    ExperimentSpec spec = new ExperimentSpec("ab", List.of(arm("base", ArmSpec.Role.BASELINE, ""), bad),
        new BenchmarkSpec("", List.of(), 3, 100, 0), HostSelector.any(), PolicySpec.defaults(), "pr");
    assertThat(SpecValidator.validate(spec)).anySatisfy(p -> assertThat(p).startsWith("arms[1].arch: unknown"))
        .anySatisfy(p -> assertThat(p).startsWith("arms[1].guest_image.sha256: 'xyz'"));
  }

  @Test
  void aFleetThatBootsOnlyX86SaysSoForAnAarch64Experiment() {
    ExperimentSpec spec = spec("aarch64", "aarch64", "");
    assertThat(FleetSummary.unsatisfiable(spec.selector(), List.of(host("h1", "x86_64", Map.of("qemu", List.of("x86_64"))))))
        .hasValueSatisfying(p -> assertThat(p)
            .startsWith("no host boots aarch64 guests: the hosts matching hypervisor=qemu boot x86_64")
            .contains("qemu-system-arm"));
  }

  @Test
  void theHostClassNamesAGuestOtherThanX86() {
    RunOutcome arm = Specs.ok("r1", "h1", 1, 100).withGuest(
        new GuestFacts("", "", List.of(), List.of(), "aarch64", "c".repeat(64)));
    RunOutcome x86 = Specs.ok("r2", "h1", 1, 100).withGuest(
        new GuestFacts("", "", List.of(), List.of(), "x86_64", "d".repeat(64)));
    assertThat(HostClassKey.of(arm)).isEqualTo("qemu/tcg guest=aarch64");
    assertThat(HostClassKey.of(x86)).isEqualTo("qemu/tcg");
    assertThat(HostClassKey.planned(spec("aarch64", "aarch64", ""),
        new HostCapabilities("h1", "x86_64", 2, 4096, Map.of(), Map.of("qemu", List.of("kvm", "tcg")), "", "", "",
            Map.of(), Map.of(), Map.of("qemu", List.of("x86_64", "aarch64")))))
        .isEqualTo("qemu/tcg guest=aarch64");
  }

  @Test
  void aWorkloadRaisesTheBootTimeoutAboveItsOwnLimit() {
    ExperimentSpec base = spec("x86_64", "x86_64", "");
    ExperimentSpec withWorkload = new ExperimentSpec(base.name(), base.arms(),
        new BenchmarkSpec("", List.of(), 0, 0, 0, "guest", 0, "warm",
            new WorkloadSpec(new ArtifactRef("e".repeat(64), "/w.cpio.gz", 10), "sh run.sh", "gobench", 300)),
        base.selector(), base.policy(), base.priority());
    assertThat(base.bootTimeoutS()).isEqualTo(dev.abfleet.controller.plan.BootTimeouts.FLOOR_S);
    assertThat(withWorkload.bootTimeoutS()).isEqualTo(300 + WorkloadSpec.BOOT_MARGIN_S);
    assertThat(SpecValidator.validate(withWorkload)).isEmpty();
  }
}
