package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which QEMU accelerators really run guests on this host. The existence of
 * {@code /dev/kvm} proves nothing: on hosts without nested virtualization it opens fine and
 * {@code -accel kvm} then hangs. So each accelerator boots a tiny firmware-only guest
 * ({@link ProbeImage}) under a short timeout, and only an accelerator whose guest reached its
 * final instruction counts as working. x86_64 only: the probe guest is x86 code.
 */
public final class KvmProbe {

  private static final Logger log = LoggerFactory.getLogger(KvmProbe.class);

  /** Default per-accelerator limit; the probe guest needs well under 0.5 s when it works. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  private final String qemuBinary;
  private final Path devKvm;
  private final CommandRunner runner;
  private final Duration timeout;

  /**
   * @param qemuBinary qemu-system-x86_64 (name or path)
   * @param devKvm     the KVM device, normally {@code /dev/kvm}
   * @param runner     starts the probe processes
   * @param timeout    limit per accelerator; a guest still running then is a hung accelerator
   */
  public KvmProbe(String qemuBinary, Path devKvm, CommandRunner runner, Duration timeout) {
    this.qemuBinary = qemuBinary;
    this.devKvm = devKvm;
    this.runner = runner;
    this.timeout = timeout;
  }

  /** Probes kvm then tcg; {@code workDir} receives the probe image and the QEMU logs. */
  public AccelProbe probe(Path workDir) {
    Path image = writeImage(workDir);
    List<String> working = new ArrayList<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    String kvmDevice = kvmDeviceProblem();
    if (kvmDevice != null) {
      reasons.put("kvm", kvmDevice);
    } else {
      judge("kvm", image, workDir, working, reasons);
    }
    judge("tcg", image, workDir, working, reasons);
    AccelProbe result = new AccelProbe(working, reasons);
    log.info("accelerator probe: working={} rejected={}", result.working(), result.reasons());
    return result;
  }

  /** The probe argv for one accelerator; pure. */
  static List<String> argv(String qemuBinary, String accelerator, Path image) {
    return List.of(qemuBinary, "-accel", accelerator, "-bios", image.toString(),
        "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
        "-display", "none", "-nodefaults", "-no-user-config", "-m", "16");
  }

  private void judge(String accel, Path image, Path workDir, List<String> working, Map<String, String> reasons) {
    RunResult r = runner.run(argv(qemuBinary, accel, image), workDir, "probe-" + accel, timeout);
    String problem = problem(accel, r);
    if (problem == null) {
      working.add(accel);
    } else {
      reasons.put(accel, problem);
    }
    log.debug("probe {}: exit={} timedOut={} wall={}ms", accel, r.exitCode(), r.timedOut(), r.wall().toMillis());
  }

  private String problem(String accel, RunResult r) {
    if (r.launchError() != null) {
      return r.launchError();
    }
    if (r.interrupted()) {
      return "probe interrupted";
    }
    if (r.timedOut()) {
      return "probe guest did not finish within " + timeout.toMillis() + " ms under -accel " + accel
          + (accel.equals("kvm")
              ? ": /dev/kvm exists but does not run guests (no nested virtualization?)"
              : "");
    }
    if (r.exitCode() != ProbeImage.SUCCESS_EXIT) {
      return "probe guest exited with " + r.exitCode() + " instead of " + ProbeImage.SUCCESS_EXIT
          + (r.stderrTail().isBlank() ? "" : ": " + r.stderrTail().strip());
    }
    return null;
  }

  private String kvmDeviceProblem() {
    if (!Files.exists(devKvm)) {
      return devKvm + " is missing (no KVM module or no hardware virtualization)";
    }
    if (!Files.isReadable(devKvm) || !Files.isWritable(devKvm)) {
      return devKvm + " is not readable and writable by this user; add the user to group kvm";
    }
    return null;
  }

  private static Path writeImage(Path workDir) {
    try {
      Files.createDirectories(workDir);
      return Files.write(workDir.resolve("probe-bios.bin"), ProbeImage.bytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the probe image in " + workDir, e);
    }
  }
}
