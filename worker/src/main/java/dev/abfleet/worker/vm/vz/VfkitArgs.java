package dev.abfleet.worker.vm.vz;

import dev.abfleet.worker.vm.KernelCmdline;
import dev.abfleet.worker.vm.VolumeTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds the vfkit argument list for one boot under Apple Virtualization.framework. A pure
 * function, pinned by unit tests. Flag syntax follows vfkit's documented command line
 * ({@code --bootloader linux,kernel=,initrd=,cmdline="..."}, {@code --device
 * virtio-serial,logFilePath=}, {@code virtio-fs,sharedDir=,mountTag=}, {@code
 * virtio-vsock,port=,socketURL=,listen}, {@code virtio-rng}).
 *
 * <p>Results channel: VZ has no second serial port to spare, so the harness appends its JSON
 * lines to {@code results.jsonl} on the virtio-fs share. The kernel command line tells it
 * where: {@code abfleet.share=<tag>} (mount {@code -t virtiofs <tag> /mnt/<tag>}) and
 * {@code abfleet.out=/mnt/<tag>/results.jsonl}; the host reads {@code <sharedDir>/results.jsonl}.
 * The console is the virtio serial port, {@code hvc0} in the guest. A host volume is a second
 * virtio-fs device, tag {@link VolumeTransport#TAG}, which /init mounts like QEMU's.
 *
 * <p>Not verified on a Mac: no macOS host was available. The argv is unit-tested and checked
 * by a fake vfkit in the driver's end-to-end test; the flag syntax is vfkit's documented one.
 */
public final class VfkitArgs {

  /** File name of the results channel inside the shared directory. */
  public static final String RESULTS_FILE = "results.jsonl";

  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_-]{1,36}");

  private VfkitArgs() {}

  /** The vfkit argv for {@code l}; throws IllegalArgumentException naming the offending value. */
  public static List<String> build(VfkitLaunch l) {
    validate(l);
    List<String> a = new ArrayList<>();
    a.add(l.binary());
    a.addAll(List.of("--cpus", Integer.toString(l.vcpus()), "--memory", Integer.toString(l.memoryMib())));
    // vfkit's REST API defaults to a TCP port in some versions; one VM per host must not need one.
    a.addAll(List.of("--restful-uri", "none://"));
    a.addAll(List.of("--bootloader", "linux,kernel=" + l.kernel() + ",initrd=" + l.initrd()
        + ",cmdline=\"" + cmdline(l.mountTag(), l.guestParams(), l.cmdlineExtra()) + "\""));
    a.addAll(List.of("--device", "virtio-serial,logFilePath=" + l.consoleLog()));
    a.addAll(List.of("--device", "virtio-fs,sharedDir=" + l.sharedDir() + ",mountTag=" + l.mountTag()));
    if (l.volumeDir() != null) {
      a.addAll(List.of("--device", "virtio-fs,sharedDir=" + l.volumeDir() + ",mountTag=" + VolumeTransport.TAG));
    }
    if (l.vsockPort() > 0) {
      a.addAll(List.of("--device", "virtio-vsock,port=" + l.vsockPort() + ",socketURL=" + l.vsockSocket() + ",listen"));
    }
    a.addAll(List.of("--device", "virtio-rng"));
    return List.copyOf(a);
  }

  /** The kernel command line: console, base arguments, results location, harness parameters, user extras last. */
  public static String cmdline(String mountTag, List<String> guestParams, String cmdlineExtra) {
    return KernelCmdline.join(List.of("console=hvc0", "quiet", "panic=-1",
        "abfleet.share=" + mountTag, "abfleet.out=" + resultsPathInGuest(mountTag)), guestParams, cmdlineExtra);
  }

  /** Where the guest writes results: {@code /mnt/<tag>/results.jsonl}. */
  public static String resultsPathInGuest(String mountTag) {
    return "/mnt/" + mountTag + "/" + RESULTS_FILE;
  }

  private static void validate(VfkitLaunch l) {
    KernelCmdline.checkSize(l.vcpus(), l.memoryMib());
    if (!TAG.matcher(l.mountTag()).matches()) {
      throw new IllegalArgumentException("virtio-fs mount tag '" + l.mountTag()
          + "' must be 1-36 letters, digits, '_' or '-'");
    }
    for (Path p : new Path[] {l.kernel(), l.initrd(), l.consoleLog(), l.sharedDir()}) {
      checkOptionValue(p);
    }
    if (l.volumeDir() != null) {
      checkOptionValue(l.volumeDir());
      if (l.mountTag().equals(VolumeTransport.TAG)) {
        throw new IllegalArgumentException("results share tag '" + l.mountTag() + "' is the volume's tag");
      }
    }
    if (l.vsockPort() < 0) {
      throw new IllegalArgumentException("vsock port must be >= 0, got " + l.vsockPort());
    }
    if (l.vsockPort() > 0) {
      checkOptionValue(l.vsockSocket());
    }
    KernelCmdline.check(l.guestParams(), l.cmdlineExtra());
    for (String p : l.guestParams()) {
      if (p.indexOf('"') >= 0) {
        throw new IllegalArgumentException("guest parameter '" + p
            + "' contains a double quote, which vfkit's cmdline=\"...\" cannot carry");
      }
    }
    if (l.cmdlineExtra().indexOf('"') >= 0) {
      throw new IllegalArgumentException("kernel command line '" + l.cmdlineExtra()
          + "' contains a double quote, which vfkit's cmdline=\"...\" cannot carry");
    }
  }

  /** vfkit splits option values on commas and has no escape for them. */
  private static void checkOptionValue(Path p) {
    if (p == null) {
      throw new IllegalArgumentException("missing path in vfkit launch");
    }
    String s = p.toString();
    if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('=') >= 0) {
      throw new IllegalArgumentException("path '" + s + "' contains ',', '=' or '\"', which vfkit options"
          + " cannot carry; use a directory without them");
    }
  }
}
