package dev.abfleet.worker.guest;

import java.nio.file.Path;

/**
 * Host tools that make a guest image for one guest CPU.
 *
 * @param compiler gcc-compatible compiler that targets the guest CPU
 * @param busybox static busybox binary for the guest CPU
 */
public record GuestToolchain(String compiler, Path busybox) {

  /** Guests of the host's own CPU: {@code gcc} and Debian busybox-static's /bin/busybox. */
  public static GuestToolchain host() {
    return new GuestToolchain(HarnessBuild.HOST_COMPILER, Path.of("/bin/busybox"));
  }

  /**
   * arm64 guests from an x86_64 host: the Debian cross compiler and an arm64 busybox, e.g.
   * {@code bin/busybox} unpacked from {@code busybox-static:arm64} with {@code dpkg -x}.
   */
  public static GuestToolchain arm64Cross(Path arm64Busybox) {
    return new GuestToolchain(HarnessBuild.ARM64_COMPILER, arm64Busybox);
  }
}
