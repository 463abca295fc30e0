package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KernelConfigTest {

  static final String DOT_CONFIG = """
      #
      # Automatically generated file; DO NOT EDIT.
      #
      CONFIG_64BIT=y
      CONFIG_VIRTIO_FS=m
      CONFIG_CMDLINE="console=ttyS0"
      CONFIG_NR_CPUS=64
      # CONFIG_ACPI is not set
      CONFIG_BROKEN=n
      """;

  @Test
  void parsesSetOptionsWithTheirValuesAndLeavesUnsetOnesOut() {
    assertThat(KernelConfig.parse(DOT_CONFIG)).containsExactly(
        Map.entry("CONFIG_64BIT", "y"), Map.entry("CONFIG_VIRTIO_FS", "m"),
        Map.entry("CONFIG_CMDLINE", "\"console=ttyS0\""), Map.entry("CONFIG_NR_CPUS", "64"));
  }

  @Test
  void requestsKeepNotSetAsN() {
    assertThat(KernelConfig.requests(DOT_CONFIG)).containsEntry("CONFIG_ACPI", "n").containsEntry("CONFIG_BROKEN", "n");
  }

  @Test
  void mergeReplacesEveryLineOfAnOptionAFragmentNamesAndLetsTheLastFragmentWin() {
    String merged = KernelConfig.merge(DOT_CONFIG, List.of("CONFIG_ACPI=y\nCONFIG_VIRTIO_FS=y\n",
        "# CONFIG_VIRTIO_FS is not set\n"));

    assertThat(merged).doesNotContain("CONFIG_VIRTIO_FS=m").doesNotContain("CONFIG_VIRTIO_FS=y")
        .doesNotContain("# CONFIG_ACPI is not set").contains("CONFIG_ACPI=y").contains("CONFIG_NR_CPUS=64");
    assertThat(KernelConfig.requests(merged)).containsEntry("CONFIG_VIRTIO_FS", "n").containsEntry("CONFIG_ACPI", "y");
  }

  @Test
  void droppedNamesEachRequestTheFinalConfigDoesNotHonour() {
    Map<String, String> requested = KernelConfig.requests("""
        CONFIG_64BIT=y
        CONFIG_VIRTIO_FS=y
        CONFIG_KVM_GUEST=y
        # CONFIG_NR_CPUS is not set
        # CONFIG_ACPI is not set
        """);

    assertThat(KernelConfig.dropped(requested, KernelConfig.parse(DOT_CONFIG))).containsExactly(
        "CONFIG_VIRTIO_FS=y requested, final: m",
        "CONFIG_KVM_GUEST=y requested, final: not set",
        "CONFIG_NR_CPUS=n requested, final: 64");
  }

  @Test
  void seesModules() {
    assertThat(KernelConfig.hasModules(KernelConfig.parse(DOT_CONFIG))).isTrue();
    assertThat(KernelConfig.hasModules(KernelConfig.parse("CONFIG_64BIT=y\n"))).isFalse();
  }
}
