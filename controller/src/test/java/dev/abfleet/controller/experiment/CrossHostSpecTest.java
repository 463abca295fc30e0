package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Selecting several hypervisors and declaring host-class dimensions, validated at submit. */
class CrossHostSpecTest {
  static ExperimentSpec with(HostSelector selector, List<String> classBy) {
    ExperimentSpec s = Specs.ab(4, 1);
    PolicySpec p = s.policy();
    return new ExperimentSpec(s.name(), s.arms(), s.benchmark(), selector,
        new PolicySpec(p.noiseThreshold(), p.alpha(), p.pairs(), p.seed(), p.bootTimeoutS(),
            p.gatingMetrics(), p.looks(), classBy), s.priority());
  }

  static HostSelector hypervisors(String... names) {
    return new HostSelector("", "", Map.of(), List.of(), List.of(names));
  }

  static HostCapabilities host(String id, Map<String, List<String>> hypervisors, String cpu) {
    return new HostCapabilities(id, "x86_64", 2, 4096, Map.of("cpu", cpu), hypervisors,
        "Model " + cpu, "", "");
  }

  @Test
  void acceptsTwoHypervisorsAndALabelDimension() {
    assertThat(SpecValidator.validate(with(hypervisors("qemu", "vz"), List.of("label:cpu", "cpu_model"))))
        .isEmpty();
  }

  @Test
  void rejectsAnUnknownHypervisorInTheListWithItsIndex() {
    assertThat(SpecValidator.validate(with(hypervisors("qemu", "kvm"), List.of())))
        .containsExactly("selector.hypervisors[1]: unknown hypervisor 'kvm'; expected one of qemu, vz, sim");
  }

  @Test
  void rejectsAHypervisorListedTwice() {
    assertThat(SpecValidator.validate(with(hypervisors("vz", "vz"), List.of())))
        .containsExactly("selector.hypervisors[1]: 'vz' is listed twice; list each hypervisor once");
  }

  @Test
  void rejectsSimMixedWithRealHypervisors() {
    assertThat(SpecValidator.validate(with(hypervisors("qemu", "sim"), List.of())))
        .singleElement().asString().contains("list sim alone");
  }

  @Test
  void rejectsASingleHypervisorOutsideTheList() {
    var selector = new HostSelector("sim", "", Map.of(), List.of(), List.of("qemu", "vz"));
    assertThat(SpecValidator.validate(with(selector, List.of()))).containsExactly(
        "selector.hypervisor: 'sim' is not one of selector.hypervisors [qemu, vz]; leave hypervisor"
            + " empty when listing hypervisors");
  }

  @Test
  void rejectsAnUnknownClassDimensionNamingTheChoices() {
    assertThat(SpecValidator.validate(with(HostSelector.any(), List.of("cpu"))))
        .containsExactly("policy.class_by[0]: unknown dimension 'cpu'; expected cpu_model, arch, host_kernel,"
            + " hypervisor_version (qemu_version) or label:KEY (e.g. label:cpu)");
  }

  @Test
  void rejectsAcceleratorAsAClassDimensionBecauseItAlwaysIsOne() {
    assertThat(SpecValidator.validate(with(HostSelector.any(), List.of("accelerator"))))
        .containsExactly("policy.class_by[0]: 'accelerator' always separates host classes; remove it");
  }

  @Test
  void rejectsAMalformedLabelDimensionAndADuplicate() {
    assertThat(SpecValidator.validate(with(HostSelector.any(), List.of("label:", "arch", "arch"))))
        .containsExactly(
            "policy.class_by[0]: 'label:' does not name a label; use label:KEY with KEY of 1 to 63"
                + " of [A-Za-z0-9_./-], e.g. label:cpu",
            "policy.class_by[2]: 'arch' is listed twice; list each dimension once");
  }

  @Test
  void aHostMatchesWhenItHasAnyListedHypervisorAndBootsWithTheFirstItHas() {
    HostSelector selector = hypervisors("vz", "qemu");
    HostCapabilities linux = host("l", Map.of("qemu", List.of("kvm", "tcg")), "a");
    HostCapabilities mac = host("m", Map.of("vz", List.of("vz"), "qemu", List.of("hvf")), "b");
    HostCapabilities simOnly = host("s", Map.of("sim", List.of("sim")), "c");
    assertThat(selector.matches(linux)).isTrue();
    assertThat(selector.matches(simOnly)).isFalse();
    assertThat(selector.hypervisorFor(linux)).isEqualTo("qemu");
    assertThat(selector.hypervisorFor(mac)).isEqualTo("vz");
  }

  @Test
  void aNewQemuOrHostKernelIsANewClass() {
    ExperimentSpec spec = with(HostSelector.any(), List.of("qemu_version", "host_kernel"));
    HostCapabilities old = new HostCapabilities("h1", "x86_64", 2, 4096, Map.of(), Map.of("qemu", List.of("tcg")),
        "m", "6.1.0-50-amd64", "", Map.of("qemu", "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18)"));
    HostCapabilities upgraded = new HostCapabilities("h1", "x86_64", 2, 4096, Map.of(),
        Map.of("qemu", List.of("tcg")), "m", "6.1.0-50-amd64", "", Map.of("qemu", "QEMU emulator version 8.2.2"));

    assertThat(SpecValidator.validate(spec)).isEmpty();
    assertThat(HostClassKey.planned(spec, old)).isEqualTo("qemu/tcg qemu_version=7.2.22 host_kernel=6.1.0-50-amd64");
    assertThat(HostClassKey.planned(spec, upgraded)).isEqualTo("qemu/tcg qemu_version=8.2.2 host_kernel=6.1.0-50-amd64");
    assertThat(HostClassKey.facts(List.of("hypervisor_version"), upgraded, "qemu")).isEqualTo("hypervisor_version=8.2.2");
    assertThat(HostClassKey.facts(List.of("hypervisor_version"), upgraded, "vz")).isEqualTo("hypervisor_version=-");
  }

  @Test
  void plannedClassIsHypervisorBestAcceleratorAndTheClassByFacts() {
    ExperimentSpec spec = with(hypervisors("qemu", "vz"), List.of("label:cpu", "cpu_model"));
    HostCapabilities linux = host("l", Map.of("qemu", List.of("kvm", "tcg")), "icelake");
    assertThat(HostClassKey.planned(spec, linux)).isEqualTo("qemu/kvm cpu=icelake cpu_model=Model icelake");
    assertThat(HostClassKey.crossClass(spec)).isTrue();
    assertThat(HostClassKey.crossClass(Specs.ab(4, 1))).isFalse();
  }
}
