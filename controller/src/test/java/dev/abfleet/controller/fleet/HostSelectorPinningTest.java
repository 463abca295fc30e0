package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostSelectorPinningTest {
  static HostCapabilities qemuHost(String id, int cpus) {
    return new HostCapabilities(id, "x86_64", cpus, 4096, Map.of(), Map.of("qemu", List.of("tcg")), "", "", "");
  }

  @Test
  void hostWithFewerCpusThanPinnedVcpusDoesNotMatch() {
    HostSelector pinned = HostSelector.any().pinning(new PinNeed("ceiling", 4));

    assertThat(pinned.matches(qemuHost("small", 2))).isFalse();
    assertThat(pinned.matchesUnpinned(qemuHost("small", 2))).isTrue();
  }

  @Test
  void hostWithACpuForEveryPinnedVcpuMatches() {
    HostSelector pinned = HostSelector.any().pinning(new PinNeed("ceiling", 4));

    assertThat(pinned.matches(qemuHost("big", 4))).isTrue();
  }

  @Test
  void unpinnedSelectorIgnoresCpuCount() {
    assertThat(HostSelector.any().matches(qemuHost("tiny", 1))).isTrue();
  }
  /** A Mac with vfkit (VZ cannot pin) and QEMU; one with VZ only. */
  static HostCapabilities mac(String id, boolean withQemu) {
    Map<String, List<String>> hypervisors = withQemu
        ? new LinkedHashMap<>(Map.of("vz", List.of("vz")))
        : Map.of("vz", List.of("vz"));
    if (withQemu) {
      hypervisors.put("qemu", List.of("hvf"));
    }
    return new HostCapabilities(id, "aarch64", 8, 16384, Map.of(), hypervisors, "", "", "", Map.of(), Map.of(),
        Map.of(), Set.of("vz"));
  }

  @Test
  void aPinnedArmIsNeverLeasedToAHypervisorThatCannotPin() {
    HostSelector vz = new HostSelector("vz", "", Map.of(), List.of());

    assertThat(vz.matches(mac("vz-only", false))).isTrue();
    assertThat(vz.pinning(new PinNeed("ceiling", 2)).matches(mac("vz-only", false))).isFalse();
    assertThat(vz.pinning(new PinNeed("ceiling", 2)).matchesButCannotPin(mac("vz-only", false))).isTrue();
    assertThat(vz.pinning(new PinNeed("ceiling", 16)).matchesButCannotPin(mac("vz-only", false))).isTrue();
    assertThat(vz.matchesButCannotPin(mac("vz-only", false))).isFalse();
  }

  @Test
  void aPinnedArmTakesTheHostsHypervisorThatPinsWhenItAllowsSeveral() {
    HostSelector either = new HostSelector("vz", "", Map.of(), List.of(), List.of("vz", "qemu"));
    HostCapabilities both = mac("mac-with-qemu", true);

    assertThat(either.hypervisorFor(both)).isEqualTo("vz");
    HostSelector pinned = either.pinning(new PinNeed("ceiling", 2));
    assertThat(pinned.hypervisorFor(both)).isEqualTo("qemu");
    assertThat(pinned.matches(both)).isTrue();
  }

  @Test
  void aWorkerThatSaysNothingAboutPinningIsTakenToPin() {
    assertThat(qemuHost("old-agent", 4).pins("qemu")).isTrue();
    assertThat(HostSelector.any().pinning(new PinNeed("ceiling", 4)).matches(qemuHost("old-agent", 4))).isTrue();
  }
}
