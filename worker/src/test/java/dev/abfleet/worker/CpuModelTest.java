package dev.abfleet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Against captured and reconstructed samples in src/test/resources/cpuinfo (see the README there). */
class CpuModelTest {

  private static String sample(String name) throws IOException {
    try (InputStream in = CpuModelTest.class.getResourceAsStream("/cpuinfo/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void takesTheModelNameOfAnX86Host() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("x86_64-amd-epyc-vm.txt"))).hasValue("AMD EPYC");
  }

  @Test
  void namesTheNeoverseN1CoreOfAnArm64KernelWithoutModelName() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-qemu-neoverse-n1.txt"))).hasValue("ARM Neoverse-N1");
  }

  @Test
  void namesGraviton2AndAmpereAltraByTheirCommonCore() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-graviton2-reconstructed.txt"))).hasValue("ARM Neoverse-N1");
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-ampere-altra-reconstructed.txt"))).hasValue("ARM Neoverse-N1");
  }

  @Test
  void namesGraviton3AsNeoverseV1AndGraviton1AsCortexA72() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-graviton3-reconstructed.txt"))).hasValue("ARM Neoverse-V1");
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-qemu-cortex-a72.txt"))).hasValue("ARM Cortex-A72");
  }

  @Test
  void namesBothCoreTypesOfABigLittleSystemInCpuOrder() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-rk3399-reconstructed.txt")))
        .hasValue("ARM Cortex-A53 + ARM Cortex-A72");
  }

  @Test
  void namesTheImplementerWhenItsPartIsUnknown() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-apple-vz-guest-reconstructed.txt")))
        .hasValue("Apple part 0x000");
  }

  @Test
  void givesTheRawIdsWhenTheImplementerIsUnknown() throws Exception {
    assertThat(CpuModel.fromProcCpuinfo(sample("arm64-qemu-max.txt"))).hasValue("implementer 0x00 part 0x051");
  }

  @Test
  void namesTheIdsTheIssueListed() {
    assertThat(ArmCpuIds.name(0x41, 0xd0c)).isEqualTo("ARM Neoverse-N1");
    assertThat(ArmCpuIds.name(0x41, 0xd40)).isEqualTo("ARM Neoverse-V1");
    assertThat(ArmCpuIds.name(0x41, 0xd4f)).isEqualTo("ARM Neoverse-V2");
    assertThat(ArmCpuIds.name(0x61, 0x023)).isEqualTo("Apple Firestorm-M1");
    assertThat(ArmCpuIds.name(0xc0, 0xac3)).isEqualTo("Ampere Ampere-1");
    assertThat(ArmCpuIds.name(0x99, 0xabc)).isEqualTo("implementer 0x99 part 0xabc");
  }

  @Test
  void findsNothingInCpuinfoWithoutModelNameOrIds() {
    assertThat(CpuModel.fromProcCpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n")).isEmpty();
    assertThat(CpuModel.fromProcCpuinfo("CPU implementer\t: 65\nCPU part\t: 0xd0c\n")).isEmpty();
  }

  @Test
  void readsTheDeviceTreeModelAndFallsBackToItsFirstCompatibleEntry() throws Exception {
    assertThat(CpuModel.fromDeviceTree(sample("dt-model-qemu-virt"), "")).hasValue("linux,dummy-virt");
    assertThat(CpuModel.fromDeviceTree("", "raspberrypi,4-model-b\0brcm,bcm2711\0")).hasValue("raspberrypi,4-model-b");
    assertThat(CpuModel.fromDeviceTree("", "")).isEmpty();
  }

  @Test
  void asksSysctlOnMacOs() {
    String model = CpuModel.probe("Mac OS X", f -> Optional.of("model name : not used"),
        () -> Optional.of("Apple M2 Pro\n"));

    assertThat(model).isEqualTo("Apple M2 Pro");
  }

  @Test
  void fallsBackToTheDeviceTreeWhenCpuinfoNamesNoCore() throws Exception {
    Map<Path, String> files = Map.of(CpuModel.CPUINFO, "processor\t: 0\nBogoMIPS\t: 50.00\n",
        CpuModel.DT_MODEL, sample("dt-model-qemu-virt"));

    String model = CpuModel.probe("Linux", f -> Optional.ofNullable(files.get(f)), Optional::empty);

    assertThat(model).isEqualTo("linux,dummy-virt");
  }

  @Test
  void isEmptyWhenNothingIsReadable() {
    assertThat(CpuModel.probe("Linux", f -> Optional.empty(), Optional::empty)).isEmpty();
    assertThat(CpuModel.probe("Mac OS X", f -> Optional.empty(), Optional::empty)).isEmpty();
  }

  @Test
  void probesThisLinuxHost() {
    assertThat(CpuModel.probe()).isEqualTo(CpuModel.fromProcCpuinfo(readCpuinfo()).orElse(""));
  }

  private static String readCpuinfo() {
    try {
      return Files.readString(CpuModel.CPUINFO);
    } catch (IOException e) {
      return "";
    }
  }
}
