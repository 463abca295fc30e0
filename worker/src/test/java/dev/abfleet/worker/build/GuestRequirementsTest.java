package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GuestRequirementsTest {

  static final List<String> X86_BASE = List.of("CONFIG_SERIAL_8250", "CONFIG_SERIAL_8250_CONSOLE",
      "CONFIG_BLK_DEV_INITRD", "CONFIG_RD_GZIP", "CONFIG_BINFMT_ELF", "CONFIG_BINFMT_SCRIPT", "CONFIG_PROC_FS",
      "CONFIG_SYSFS", "CONFIG_DEVTMPFS", "CONFIG_TMPFS");

  static Map<String, String> allY(List<String> options) {
    Map<String, String> m = new LinkedHashMap<>();
    options.forEach(o -> m.put(o, "y"));
    return m;
  }

  @Test
  void theShippedMinimalFragmentMeetsEveryRequirement() {
    for (String arch : List.of("x86_64", "aarch64")) {
      Map<String, String> config = KernelConfig.parse(KernelBuilder.minimalFragment(arch));
      for (String transport : new String[] {null, "9p", "virtiofs"}) {
        assertThat(GuestRequirements.missing(config, arch, transport)).as(arch + " " + transport).isEmpty();
      }
      if (arch.equals("x86_64")) {
        // The MADT lists every vCPU (the MP table only the first of each socket), and ACPI powers off.
        assertThat(config).containsEntry("CONFIG_ACPI", "y");
      }
    }
  }

  @Test
  void namesAMissingVirtiofsOptionWithTheReasonAndTheFix() {
    Map<String, String> config = allY(X86_BASE);
    config.put("CONFIG_FUSE_FS", "y");
    config.put("CONFIG_VIRTIO_PCI", "y");

    assertThat(GuestRequirements.missing(config, "x86_64", "virtiofs")).containsExactly(
        "CONFIG_VIRTIO_FS is not set: the benchmark's host volume uses virtiofs; add CONFIG_VIRTIO_FS=y to a config"
            + " fragment");
    assertThat(GuestRequirements.missing(config, "x86_64", null)).isEmpty();
  }

  @Test
  void marksModulesSoACallerShippingTheModuleTreeCanAcceptThem() {
    Map<String, String> config = allY(X86_BASE);
    config.putAll(Map.of("CONFIG_NET_9P", "m", "CONFIG_NET_9P_VIRTIO", "m", "CONFIG_9P_FS", "m",
        "CONFIG_VIRTIO_PCI", "y"));

    List<GuestRequirements.Missing> missing = GuestRequirements.check(config, "x86_64", "9p");

    assertThat(missing).extracting(GuestRequirements.Missing::option)
        .containsExactly("CONFIG_NET_9P", "CONFIG_NET_9P_VIRTIO", "CONFIG_9P_FS");
    assertThat(missing).allMatch(GuestRequirements.Missing::module);
    assertThat(missing.get(2).message()).isEqualTo("CONFIG_9P_FS=m: the benchmark's host volume uses 9p; ship the"
        + " kernel's module tree with the guest, or add CONFIG_9P_FS=y to a config fragment");
  }

  @Test
  void anArm64GuestNeedsThePl011ConsoleAndTheVirtioConsoleForResults() {
    assertThat(GuestRequirements.check(Map.of(), "aarch64", null)).extracting(GuestRequirements.Missing::option)
        .startsWith("CONFIG_SERIAL_AMBA_PL011", "CONFIG_SERIAL_AMBA_PL011_CONSOLE", "CONFIG_VIRTIO_CONSOLE",
            "CONFIG_VIRTIO_MMIO")
        .doesNotContain("CONFIG_SERIAL_8250");
  }

  @Test
  void rejectsAnUnknownTransport() {
    assertThatThrownBy(() -> GuestRequirements.missing(Map.of(), "x86_64", "nfs"))
        .hasMessageContaining("unknown volume transport 'nfs'; expected 9p or virtiofs");
  }
}
