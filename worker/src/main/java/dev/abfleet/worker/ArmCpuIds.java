package dev.abfleet.worker;

import java.util.Map;

/**
 * Names of arm64 cores from the implementer and part ids that Linux prints in /proc/cpuinfo
 * ({@code CPU implementer}, {@code CPU part}: fields of the MIDR_EL1 register). The ids are
 * those of the Linux kernel's {@code arch/arm64/include/asm/cputype.h} and util-linux's lscpu;
 * only cores a benchmark host is likely to have are listed. Cloud machines are named by their
 * core: AWS Graviton2 and Ampere Altra are both Neoverse-N1, Graviton3 is Neoverse-V1,
 * Graviton4 is Neoverse-V2 (AmpereOne and Azure Cobalt 100 have ids of their own).
 */
final class ArmCpuIds {

  private record Implementer(String name, Map<Integer, String> parts) {}

  private static final Map<Integer, Implementer> IMPLEMENTERS = Map.of(
      0x41, new Implementer("ARM", Map.ofEntries(
          Map.entry(0xd03, "Cortex-A53"), Map.entry(0xd04, "Cortex-A35"), Map.entry(0xd05, "Cortex-A55"),
          Map.entry(0xd07, "Cortex-A57"), Map.entry(0xd08, "Cortex-A72"), Map.entry(0xd09, "Cortex-A73"),
          Map.entry(0xd0a, "Cortex-A75"), Map.entry(0xd0b, "Cortex-A76"), Map.entry(0xd0c, "Neoverse-N1"),
          Map.entry(0xd0d, "Cortex-A77"), Map.entry(0xd40, "Neoverse-V1"), Map.entry(0xd41, "Cortex-A78"),
          Map.entry(0xd44, "Cortex-X1"), Map.entry(0xd46, "Cortex-A510"), Map.entry(0xd47, "Cortex-A710"),
          Map.entry(0xd48, "Cortex-X2"), Map.entry(0xd49, "Neoverse-N2"), Map.entry(0xd4a, "Neoverse-E1"),
          Map.entry(0xd4b, "Cortex-A78C"), Map.entry(0xd4d, "Cortex-A715"), Map.entry(0xd4e, "Cortex-X3"),
          Map.entry(0xd4f, "Neoverse-V2"), Map.entry(0xd80, "Cortex-A520"), Map.entry(0xd81, "Cortex-A720"),
          Map.entry(0xd82, "Cortex-X4"), Map.entry(0xd84, "Neoverse-V3"), Map.entry(0xd8e, "Neoverse-N3"))),
      0x43, new Implementer("Cavium", Map.of(0x0a1, "ThunderX-88XX", 0x0af, "ThunderX2-99xx")),
      0x46, new Implementer("Fujitsu", Map.of(0x001, "A64FX")),
      0x48, new Implementer("HiSilicon", Map.of(0xd01, "Kunpeng-920")),
      0x4e, new Implementer("NVIDIA", Map.of(0x003, "Denver 2", 0x004, "Carmel")),
      0x51, new Implementer("Qualcomm", Map.of(0x001, "Oryon", 0x800, "Falkor-V1/Kryo", 0xc00, "Falkor")),
      0x61, new Implementer("Apple", Map.ofEntries(
          Map.entry(0x022, "Icestorm-M1"), Map.entry(0x023, "Firestorm-M1"),
          Map.entry(0x024, "Icestorm-M1-Pro"), Map.entry(0x025, "Firestorm-M1-Pro"),
          Map.entry(0x028, "Icestorm-M1-Max"), Map.entry(0x029, "Firestorm-M1-Max"),
          Map.entry(0x032, "Blizzard-M2"), Map.entry(0x033, "Avalanche-M2"),
          Map.entry(0x034, "Blizzard-M2-Pro"), Map.entry(0x035, "Avalanche-M2-Pro"),
          Map.entry(0x038, "Blizzard-M2-Max"), Map.entry(0x039, "Avalanche-M2-Max"))),
      0x6d, new Implementer("Microsoft", Map.of(0xd49, "Azure-Cobalt-100")),
      0xc0, new Implementer("Ampere", Map.of(0xac3, "Ampere-1", 0xac4, "Ampere-1a")));

  private ArmCpuIds() {}

  /**
   * The core's name, e.g. {@code ARM Neoverse-N1}; {@code Apple part 0x000} when only the
   * implementer is known; {@code implementer 0x00 part 0x051} when neither is (QEMU's
   * {@code -cpu max} reports implementer 0, reserved for software).
   */
  static String name(int implementer, int part) {
    Implementer i = IMPLEMENTERS.get(implementer);
    if (i == null) {
      return String.format("implementer 0x%02x part 0x%03x", implementer, part);
    }
    String p = i.parts().get(part);
    return p != null ? i.name() + " " + p : String.format("%s part 0x%03x", i.name(), part);
  }
}
