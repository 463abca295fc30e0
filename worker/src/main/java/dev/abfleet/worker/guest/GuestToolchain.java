package dev.abfleet.worker.guest;

import dev.abfleet.model.Arch;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Path;

/**
 * Host tools that make a guest image for one guest CPU.
 *
 * @param compiler gcc-compatible compiler that targets the guest CPU
 * @param busybox static busybox binary for the guest CPU
 */
public record GuestToolchain(String compiler, Path busybox) {

  /** Debian busybox-static's busybox, for guests of the host's own CPU. */
  static final Path HOST_BUSYBOX = Path.of("/bin/busybox");

  /** Guests of the host's own CPU: {@code gcc} and Debian busybox-static's /bin/busybox. */
  public static GuestToolchain host() {
    return new GuestToolchain(HarnessBuild.HOST_COMPILER, HOST_BUSYBOX);
  }

  /** As {@link #forArch(String, Path, String, CommandRunner)} on this host, with real processes. */
  public static GuestToolchain forArch(String arch, Path cacheDir) throws GuestImageException, InterruptedException {
    return forArch(arch, cacheDir, Arch.host(), new ProcessRunner());
  }

  /**
   * The tools for {@code arch} guests on a {@code hostArch} host: the host's own for its own
   * architecture; otherwise the Debian cross compiler (e.g. {@code aarch64-linux-gnu-gcc}) and
   * the guest architecture's {@code busybox-static} package, fetched with apt into the cache
   * once (nothing runs when it is there).
   *
   * @param arch guest architecture, {@code x86_64} or {@code aarch64}
   * @param hostArch the host's, in the same terms
   * @param runner runs apt-get and dpkg
   * @throws GuestImageException unknown {@code arch}, or the busybox package cannot be fetched
   *     (the message is one line with the fix)
   */
  public static GuestToolchain forArch(String arch, Path cacheDir, String hostArch, CommandRunner runner)
      throws GuestImageException, InterruptedException {
    GuestArch guest = GuestArch.parse(arch);
    if (guest.wire().equals(hostArch)) {
      return host();
    }
    return new GuestToolchain(guest.crossCompiler(), ForeignBusybox.fetch(guest, cacheDir, runner));
  }
}
