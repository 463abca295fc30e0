package dev.abfleet.worker.guest;

import dev.abfleet.model.Arch;

import dev.abfleet.worker.artifact.Sha256;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveInputStream;

/**
 * The guest image: the initramfs with /init, a static busybox and fleetbench for one guest
 * architecture, no kernel modules ({@link InitramfsLayers} adds those per boot). Built once per
 * host and input change (harness source, /init, busybox, compiler target), then served from
 * the cache in milliseconds, so preparing it never falls inside the measured window. Its bytes
 * depend only on its inputs, so it is content-addressed by its SHA-256 and can be built on one
 * host and staged on another.
 */
public final class GuestImage {

  /** Bytes of busybox's ELF header enough for its {@code e_machine}. */
  private static final int ELF_HEAD = 64;

  private GuestImage() {}

  /**
   * A built guest image.
   *
   * @param path gzip-compressed newc archive in the cache
   * @param sha256 lower-case hex SHA-256 of its bytes
   * @param arch its guest architecture, {@code x86_64} or {@code aarch64}
   */
  public record Built(Path path, String sha256, String arch) {
    public Built {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(sha256, "sha256");
      Objects.requireNonNull(arch, "arch");
    }
  }

  /**
   * The guest image for {@code arch} guests on this host, with the toolchain of
   * {@link GuestToolchain#forArch(String, Path)}: the host's gcc and busybox for its own
   * architecture, a Debian cross compiler and a fetched busybox-static for the other.
   *
   * @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet)
   * @param arch {@code x86_64} or {@code aarch64}
   * @throws GuestImageException unknown arch, or a host tool is missing or unusable (the
   *     message names the fix; an INFRA failure)
   */
  public static Built base(Path cacheDir, String arch) throws GuestImageException, InterruptedException {
    return base(cacheDir, arch, GuestToolchain.forArch(arch, cacheDir));
  }

  /**
   * As {@link #base(Path, String)} with the given tools.
   *
   * @throws GuestImageException the tools do not make static executables of {@code arch}
   */
  public static Built base(Path cacheDir, String arch, GuestToolchain toolchain)
      throws GuestImageException, InterruptedException {
    GuestArch guest = GuestArch.parse(arch);
    Path harness = new HarnessBuild(cacheDir, toolchain.compiler()).ensureBinary();
    checkMachine(toolchain.busybox(), guest, "busybox", "use busybox-static:" + guest.debianArch());
    checkMachine(harness, guest, "fleetbench built by " + toolchain.compiler(),
        "compile with a compiler that targets " + guest.wire() + " (" + guest.crossCompiler() + ")");
    byte[] init = Resources.read(Resources.INIT_SCRIPT);
    Path image = new InitramfsBuilder(cacheDir).build(init, toolchain.busybox(), harness);
    try {
      return new Built(image, Sha256.ofFile(image), guest.wire());
    } catch (IOException e) {
      throw new GuestImageException("cannot read guest image " + image + ": " + e, e);
    }
  }

  /** The path of the guest image for the host's own architecture; see {@link #base(Path, String)}. */
  public static Path ensure(Path cacheDir) throws GuestImageException, InterruptedException {
    return base(cacheDir, Arch.host()).path();
  }

  /**
   * The guest architecture of an image, from the ELF header of {@code bin/busybox} in its first
   * archive; empty when the file is not a gzip-compressed newc archive, holds no busybox before
   * its end, or the busybox is of an architecture abfleet does not know. Reads only as far as
   * the busybox.
   */
  public static Optional<String> archOf(Path image) {
    try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(image)));
        CpioArchiveInputStream cpio = new CpioArchiveInputStream(in)) {
      CpioArchiveEntry e;
      while ((e = cpio.getNextEntry()) != null) {
        if (e.isRegularFile() && normalize(e.getName()).equals("bin/busybox")) {
          return ElfInfo.machineOf(cpio.readNBytes(ELF_HEAD))
              .flatMap(GuestArch::fromElfMachine).map(GuestArch::wire);
        }
      }
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      // Corrupt or truncated: not an image we can tell the architecture of.
      return Optional.empty();
    }
  }

  /** Entry names as other cpio writers spell them: {@code ./bin/busybox}, {@code /bin/busybox}. */
  private static String normalize(String name) {
    String n = name;
    while (n.startsWith("./") || n.startsWith("/")) {
      n = n.substring(n.startsWith("./") ? 2 : 1);
    }
    return n;
  }

  /** Rejects an executable of another CPU than {@code arch}; {@link InitramfsBuilder} checks the rest. */
  private static void checkMachine(Path file, GuestArch arch, String what, String fix) throws GuestImageException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(ELF_HEAD);
    } catch (IOException e) {
      return; // InitramfsBuilder reports a missing or unreadable input with its fix
    }
    Optional<Integer> machine = ElfInfo.machineOf(head);
    if (machine.isPresent() && machine.get() != arch.elfMachine()) {
      throw new GuestImageException(what + " " + file + " is " + new ElfInfo(machine.get(), true).machineName()
          + ", not " + arch.wire() + ": " + fix);
    }
  }
}
