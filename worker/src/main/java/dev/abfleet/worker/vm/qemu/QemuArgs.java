package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.vm.KernelCmdline;
import dev.abfleet.worker.vm.VolumeTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds the qemu-system argument list for one boot. A pure function: no file system, no
 * environment, so every flag is pinned by unit tests.
 *
 * <p>The guest console and the harness results go to two different files so results are
 * never mixed with kernel messages or terminal escape codes:
 * <ul>
 *   <li>x86_64: console on the first serial port ({@code ttyS0}), results on the second
 *       ({@code /dev/ttyS1} in the guest);</li>
 *   <li>aarch64 ({@code -M virt}): console on the PL011 UART ({@code ttyAMA0}), results on a
 *       virtio console ({@code /dev/hvc0}), announced to the harness as
 *       {@code abfleet.out=/dev/hvc0}.</li>
 * </ul>
 *
 * <p>A host volume adds its device ({@link #volumeArgs}) under the tag the guest mounts.
 *
 * <p>A VM whose vCPUs are to be pinned gets a QMP socket, starts paused ({@code -S}) and, on
 * TCG, runs one host thread per vCPU ({@code thread=multi}); see {@link VcpuPinner}.
 */
public final class QemuArgs {

  /** Kernel arguments every boot gets before the harness and user arguments. */
  static final String BASE_CMDLINE = "quiet panic=-1";

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  /** 9p mount tags are at most 31 bytes in QEMU; the same limit keeps virtio-fs tags portable. */
  private static final Pattern MOUNT_TAG = Pattern.compile("[A-Za-z0-9_-]{1,31}");

  private QemuArgs() {}

  /** The qemu-system argv for {@code l}; throws IllegalArgumentException naming the offending value. */
  public static List<String> build(QemuLaunch l) {
    validate(l);
    boolean kvm = l.accelerator().equals("kvm");
    List<String> a = new ArrayList<>();
    a.add(l.binary());
    a.addAll(List.of("-name", "abfleet-" + l.runId()));
    if (l.arch().equals("aarch64")) {
      a.addAll(List.of("-M", "virt"));
    }
    boolean pinned = l.qmpSocket() != null;
    // A pinned VM needs a host thread per vCPU; TCG may otherwise run them all on one.
    a.addAll(List.of("-accel", pinned && !kvm ? "tcg,thread=multi" : l.accelerator()));
    if (kvm) {
      a.addAll(List.of("-cpu", "host"));
    } else if (l.arch().equals("aarch64")) {
      a.addAll(List.of("-cpu", "max"));
    }
    a.addAll(List.of("-m", Integer.toString(l.memoryMib()), "-smp", Integer.toString(l.vcpus())));
    a.addAll(List.of("-nodefaults", "-no-user-config", "-display", "none", "-no-reboot"));
    a.addAll(List.of("-kernel", l.kernel().toString(), "-initrd", l.initrd().toString()));
    a.addAll(List.of("-append", appendLine(l.arch(), l.guestParams(), l.cmdlineExtra())));
    a.addAll(List.of("-chardev", "file,id=con,path=" + opt(l.consoleLog()), "-serial", "chardev:con"));
    if (l.arch().equals("x86_64")) {
      a.addAll(List.of("-chardev", "file,id=res,path=" + opt(l.resultsLog()), "-serial", "chardev:res"));
    } else {
      a.addAll(List.of("-device", "virtio-serial-device",
          "-chardev", "file,id=res,path=" + opt(l.resultsLog()),
          "-device", "virtconsole,chardev=res"));
    }
    if (l.volume() != null) {
      a.addAll(volumeArgs(l.volume(), l.memoryMib()));
    }
    if (pinned) {
      // Paused (-S) until the driver has pinned the vCPU threads and sends QMP cont.
      a.addAll(List.of("-qmp", "unix:" + opt(l.qmpSocket()) + ",server=on,wait=off", "-S"));
    }
    return List.copyOf(a);
  }

  /**
   * The devices of a host volume.
   * <ul>
   *   <li>9p: QEMU serves the directory itself ({@code -fsdev local}); {@code security_model=none}
   *       creates files as the QEMU user and ignores the guest's ownership changes, which a
   *       benchmark scratch directory does not need;</li>
   *   <li>virtio-fs: virtiofsd serves it over a vhost-user socket; vhost-user needs the guest
   *       RAM in shared memory, so the RAM becomes a memfd backend of the VM's size.</li>
   * </ul>
   */
  static List<String> volumeArgs(QemuLaunch.Volume v, int memoryMib) {
    String tag = v.share().tag();
    return switch (v.share().transport()) {
      case NINE_P -> List.of(
          "-fsdev", "local,id=vol,path=" + opt(v.share().hostDir()) + ",security_model=none",
          "-device", "virtio-9p-pci,fsdev=vol,mount_tag=" + tag);
      case VIRTIOFS -> List.of(
          "-object", "memory-backend-memfd,id=mem,size=" + memoryMib + "M,share=on",
          "-numa", "node,memdev=mem",
          "-chardev", "socket,id=vol,path=" + opt(v.virtiofsSocket()),
          "-device", "vhost-user-fs-pci,chardev=vol,tag=" + tag);
    };
  }

  /**
   * The kernel command line: console, {@value #BASE_CMDLINE}, the results device on arches
   * where it is not the harness default, the harness parameters, then the user's extra
   * arguments (last, so the user can override earlier ones).
   */
  public static String appendLine(String arch, List<String> guestParams, String cmdlineExtra) {
    List<String> fixed = new ArrayList<>(List.of("console=" + consoleDevice(arch), BASE_CMDLINE));
    if (arch.equals("aarch64")) {
      fixed.add("abfleet.out=" + resultsDevice(arch));
    }
    return KernelCmdline.join(fixed, guestParams, cmdlineExtra);
  }

  /** The guest device the harness must write results to: {@code /dev/ttyS1} (x86_64) or {@code /dev/hvc0} (aarch64). */
  public static String resultsDevice(String arch) {
    return switch (checkArch(arch)) {
      case "x86_64" -> "/dev/ttyS1";
      default -> "/dev/hvc0";
    };
  }

  /** The kernel console device name for {@code arch}. */
  public static String consoleDevice(String arch) {
    return switch (checkArch(arch)) {
      case "x86_64" -> "ttyS0";
      default -> "ttyAMA0";
    };
  }

  /** {@code qemu-system-x86_64} or {@code qemu-system-aarch64}. */
  public static String binaryFor(String arch) {
    return "qemu-system-" + checkArch(arch);
  }

  private static void validate(QemuLaunch l) {
    checkArch(l.arch());
    if (!l.accelerator().equals("kvm") && !l.accelerator().equals("tcg")) {
      throw new IllegalArgumentException("unknown accelerator '" + l.accelerator() + "'; expected kvm or tcg");
    }
    if (!RUN_ID.matcher(l.runId()).matches()) {
      throw new IllegalArgumentException("run id '" + l.runId()
          + "' must be 1-64 characters of letters, digits, '.', '_' or '-'");
    }
    KernelCmdline.checkSize(l.vcpus(), l.memoryMib());
    KernelCmdline.check(l.guestParams(), l.cmdlineExtra());
    if (l.volume() != null) {
      validate(l.volume());
    }
  }

  private static void validate(QemuLaunch.Volume v) {
    if (v.share() == null) {
      throw new IllegalArgumentException("volume without a share");
    }
    if (!MOUNT_TAG.matcher(v.share().tag()).matches()) {
      throw new IllegalArgumentException("volume mount tag '" + v.share().tag()
          + "' must be 1-31 letters, digits, '_' or '-'");
    }
    if (v.share().transport() == VolumeTransport.VIRTIOFS && v.virtiofsSocket() == null) {
      throw new IllegalArgumentException("a virtiofs volume needs virtiofsd's socket path");
    }
  }

  private static String checkArch(String arch) {
    if (!arch.equals("x86_64") && !arch.equals("aarch64")) {
      throw new IllegalArgumentException("unknown guest arch '" + arch + "'; expected x86_64 or aarch64");
    }
    return arch;
  }

  /** QEMU option values are comma-separated; a literal comma is written twice. */
  static String opt(Path p) {
    return p.toString().replace(",", ",,");
  }
}
