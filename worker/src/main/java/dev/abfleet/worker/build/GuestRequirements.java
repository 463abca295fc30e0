package dev.abfleet.worker.build;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel options a guest of this project needs, so a caller can refuse a kernel that cannot
 * boot the benchmark before it boots it. Built in ({@code =y}) always works; {@code =m} works
 * only when the caller ships the kernel's module tree in the initramfs, so such options are
 * reported too and marked {@link Missing#module()}.
 */
public final class GuestRequirements {

  private static final String INITRAMFS = "the guest is a gzip initramfs";
  private static final String PROGRAMS = "busybox and the harness are ELF programs started from the /init script";
  private static final String MOUNTS = "the guest's /init mounts proc, sysfs, devtmpfs and tmpfs";

  private GuestRequirements() {}

  /**
   * One option the guest needs that the config does not build in.
   *
   * @param option e.g. {@code CONFIG_VIRTIO_FS}
   * @param value  {@code "m"} when it is a module, null when it is not set
   * @param why    what of the benchmark needs it
   */
  public record Missing(String option, String value, String why) {

    /** True when the option is a module: fine if the caller loads it from the kernel's module tree. */
    public boolean module() {
      return "m".equals(value);
    }

    /** e.g. {@code CONFIG_VIRTIO_FS is not set: the benchmark's host volume uses virtiofs; add CONFIG_VIRTIO_FS=y to a config fragment}. */
    public String message() {
      return module()
          ? option + "=m: " + why + "; ship the kernel's module tree with the guest, or add " + option
              + "=y to a config fragment"
          : option + " is " + (value == null ? "not set" : "set to " + value) + ": " + why + "; add " + option
              + "=y to a config fragment";
    }
  }

  /**
   * {@link #check}'s findings as messages, each starting with the option name.
   *
   * @param volumeTransport null (no host volume), {@code "9p"} or {@code "virtiofs"}
   */
  public static List<String> missing(Map<String, String> config, String arch, String volumeTransport) {
    return check(config, arch, volumeTransport).stream().map(Missing::message).toList();
  }

  /** Every needed option of {@code arch} and {@code volumeTransport} that {@code config} does not set to y. */
  public static List<Missing> check(Map<String, String> config, String arch, String volumeTransport) {
    List<Missing> out = new ArrayList<>();
    required(arch, volumeTransport).forEach((option, why) -> {
      String value = config.get(option);
      if (!"y".equals(value)) {
        out.add(new Missing(option, value, why));
      }
    });
    return out;
  }

  /** Option -> why, in a stable order; throws IllegalArgumentException for an unknown arch or transport. */
  static Map<String, String> required(String arch, String volumeTransport) {
    Map<String, String> r = new LinkedHashMap<>();
    switch (arch) {
      case "x86_64" -> {
        String serial = "the console (ttyS0) and the results (ttyS1) are serial ports";
        r.put("CONFIG_SERIAL_8250", serial);
        r.put("CONFIG_SERIAL_8250_CONSOLE", serial);
      }
      case "aarch64" -> {
        String console = "the console is the virt machine's PL011 UART (ttyAMA0)";
        r.put("CONFIG_SERIAL_AMBA_PL011", console);
        r.put("CONFIG_SERIAL_AMBA_PL011_CONSOLE", console);
        String results = "the results go to hvc0, a virtio console on the virt machine's MMIO bus";
        r.put("CONFIG_VIRTIO_CONSOLE", results);
        r.put("CONFIG_VIRTIO_MMIO", results);
      }
      default -> throw new IllegalArgumentException("unknown arch '" + arch + "'; expected x86_64 or aarch64");
    }
    r.put("CONFIG_BLK_DEV_INITRD", INITRAMFS);
    r.put("CONFIG_RD_GZIP", INITRAMFS);
    r.put("CONFIG_BINFMT_ELF", PROGRAMS);
    r.put("CONFIG_BINFMT_SCRIPT", PROGRAMS);
    for (String fs : List.of("CONFIG_PROC_FS", "CONFIG_SYSFS", "CONFIG_DEVTMPFS", "CONFIG_TMPFS")) {
      r.put(fs, MOUNTS);
    }
    if (volumeTransport != null) {
      String why = "the benchmark's host volume uses " + volumeTransport;
      switch (volumeTransport) {
        case "9p" -> List.of("CONFIG_NET_9P", "CONFIG_NET_9P_VIRTIO", "CONFIG_9P_FS").forEach(o -> r.put(o, why));
        case "virtiofs" -> List.of("CONFIG_FUSE_FS", "CONFIG_VIRTIO_FS").forEach(o -> r.put(o, why));
        default -> throw new IllegalArgumentException(
            "unknown volume transport '" + volumeTransport + "'; expected 9p or virtiofs");
      }
      r.put("CONFIG_VIRTIO_PCI", why + " (a virtio PCI device)");
      if (arch.equals("aarch64")) {
        r.put("CONFIG_PCI_HOST_GENERIC", why + " (a virtio PCI device behind the virt machine's host bridge)");
      }
    }
    return r;
  }
}
