package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
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
}
