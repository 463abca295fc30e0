package dev.abfleet.worker.guest;

import dev.abfleet.model.Arch;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The guest CPU architectures abfleet builds images for, with what building one takes on a
 * host of another architecture (Debian names).
 */
public enum GuestArch {
  X86_64(Arch.X86_64, ElfInfo.X86_64, "amd64", "x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu libc6-dev-amd64-cross"),
  AARCH64(Arch.AARCH64, ElfInfo.AARCH64, "arm64", "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu libc6-dev-arm64-cross");

  private final String wire;
  private final int elfMachine;
  private final String debianArch;
  private final String crossCompiler;
  private final String crossPackages;

  GuestArch(Arch arch, int elfMachine, String debianArch, String crossCompiler, String crossPackages) {
    this.wire = arch.wire();
    this.elfMachine = elfMachine;
    this.debianArch = debianArch;
    this.crossCompiler = crossCompiler;
    this.crossPackages = crossPackages;
  }

  /** The name the protocol and the kernel inspection use: {@code x86_64} or {@code aarch64}. */
  public String wire() {
    return wire;
  }

  /** ELF {@code e_machine} of its executables. */
  int elfMachine() {
    return elfMachine;
  }

  /** Debian's name of the architecture, e.g. {@code arm64}, as in {@code busybox-static:arm64}. */
  String debianArch() {
    return debianArch;
  }

  /** The Debian cross compiler that targets it from another architecture. */
  String crossCompiler() {
    return crossCompiler;
  }

  /** The Debian packages of {@link #crossCompiler()}, space-separated. */
  String crossPackages() {
    return crossPackages;
  }

  /** The architecture named {@code wire}, if abfleet knows it. */
  public static Optional<GuestArch> fromWire(String wire) {
    return Arrays.stream(values()).filter(a -> a.wire.equals(wire)).findFirst();
  }

  /** The architecture whose executables have ELF {@code e_machine} {@code machine}, if any. */
  static Optional<GuestArch> fromElfMachine(int machine) {
    return Arrays.stream(values()).filter(a -> a.elfMachine == machine).findFirst();
  }

  /** As {@link #fromWire}, else a {@link GuestImageException} naming the known ones. */
  public static GuestArch parse(String wire) throws GuestImageException {
    return fromWire(wire).orElseThrow(() -> new GuestImageException("unknown guest arch '" + wire + "'; expected "
        + Arrays.stream(values()).map(GuestArch::wire).collect(Collectors.joining(" or "))));
  }
}
