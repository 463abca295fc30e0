package dev.abfleet.worker.vm.qemu;

import dev.abfleet.model.Arch;

import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.EndMarker;
import dev.abfleet.worker.process.Executables;
import dev.abfleet.worker.process.OutputCap;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.GuestOutputCaps;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.VolumeDaemon;
import dev.abfleet.worker.vm.VolumeShare;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Boots kernels in QEMU. The accelerator is chosen once per driver from a real probe
 * ({@link KvmProbe}): KVM when it runs guests, else TCG. Each boot records the accelerator it
 * used. KVM is only used for guests of the host's own architecture; other guests run on TCG.
 *
 * <p>Per boot, {@code workDir} receives {@code console.log}, {@code results.log} and
 * {@code qemu.stdout}/{@code qemu.stderr}. A VM whose console or results file grows past its
 * {@link GuestOutputCaps cap} is killed. A boot that asks for pinned vCPUs starts paused; the
 * driver pins its vCPU threads ({@link VcpuPinner}) and only then lets the guest run
 * ({@link PinnedLaunch}).
 *
 * <p>A boot with a host volume gets the transport's device ({@link QemuArgs#volumeArgs}); for
 * virtio-fs, a {@link Virtiofsd} is started before QEMU and stopped when QEMU has exited,
 * whatever the outcome ({@link QemuVolume}). The transports
 * offered are probed once ({@link VolumeProbe}).
 */
public final class QemuDriver implements VmDriver {

  private static final Logger log = LoggerFactory.getLogger(QemuDriver.class);

  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);
  /** The guest architectures QEMU can boot, in the order the Hello lists them. */
  private static final List<String> GUEST_ARCHES = Arch.NAMES;

  private final CommandRunner runner;
  private final Function<String, Optional<Path>> which;
  private final Function<String, AccelProbe> prober;
  private final String hostArch;
  private final Path scratch;
  private final VcpuPinner pinner;

  private final Function<Path, VolumeProbe> volumeProber;

  private AccelProbe probe;   // guarded by this
  private String version;     // guarded by this
  private VolumeProbe volumes; // guarded by this

  /**
   * @param runner   starts QEMU
   * @param which    resolves a program name to its path (empty when not installed)
   * @param prober   given the qemu-system-x86_64 path, probes the accelerators (called once)
   * @param hostArch the host CPU architecture in guest terms ({@code x86_64} or {@code aarch64})
   * @param scratch  directory for probe images and version output
   */
  public QemuDriver(CommandRunner runner, Function<String, Optional<Path>> which,
      Function<String, AccelProbe> prober, String hostArch, Path scratch) {
    this(runner, which, prober, qemu -> VolumeProbe.probe(qemu, which, runner, scratch), hostArch, scratch);
  }

  /**
   * @param volumeProber given the qemu-system-x86_64 path, probes the host-volume transports
   *     (called once; see {@link VolumeProbe})
   */
  public QemuDriver(CommandRunner runner, Function<String, Optional<Path>> which,
      Function<String, AccelProbe> prober, Function<Path, VolumeProbe> volumeProber, String hostArch,
      Path scratch) {
    this(runner, which, prober, volumeProber, hostArch, scratch, new VcpuPinner(runner, which, VcpuPinner::ownCpus));
  }

  /** As above; {@code pinner} pins the vCPUs of boots that ask for it. */
  public QemuDriver(CommandRunner runner, Function<String, Optional<Path>> which,
      Function<String, AccelProbe> prober, Function<Path, VolumeProbe> volumeProber, String hostArch,
      Path scratch, VcpuPinner pinner) {
    this.runner = runner;
    this.which = which;
    this.prober = prober;
    this.volumeProber = volumeProber;
    this.hostArch = hostArch;
    this.scratch = scratch;
    this.pinner = pinner;
  }

  /**
   * The driver for this host: PATH lookup, {@code /dev/kvm}, real processes. The probe verdict
   * is kept in {@code scratch/accel-probe.properties} for a day ({@link ProbeCache}), so a
   * restart does not probe again unless QEMU or {@code /dev/kvm} changed.
   */
  public static QemuDriver forThisHost(Path scratch) {
    ProcessRunner runner = new ProcessRunner();
    Path devKvm = Path.of("/dev/kvm");
    ProbeCache probe = new ProbeCache(scratch.resolve(ProbeCache.FILE_NAME), ProbeCache.DEFAULT_TTL,
        Clock.systemUTC(),
        binary -> ProbeCache.key(binary, versionLine(runner, Path.of(binary), scratch).orElse(""),
            Files.exists(devKvm)),
        binary -> new KvmProbe(binary, devKvm, runner, KvmProbe.DEFAULT_TIMEOUT).probe(scratch.resolve("probe")));
    return new QemuDriver(runner, Executables::onPath, probe, Arch.host(), scratch);
  }

  @Override
  public String name() {
    return "qemu";
  }

  @Override
  public List<String> accelerators() {
    return accelProbe().working();
  }

  /**
   * The guest architectures whose {@code qemu-system-*} binary is installed, when QEMU can run
   * guests here at all; guests of another architecture than the host's run on TCG.
   */
  @Override
  public List<String> guestArches() {
    if (accelerators().isEmpty()) {
      return List.of();
    }
    return GUEST_ARCHES.stream().filter(arch -> which.apply(QemuArgs.binaryFor(arch)).isPresent()).toList();
  }

  /**
   * On aarch64 ({@code -M virt}) the results channel is a virtio console on virtio-mmio, which
   * kernels such as Debian's arm64 cloud kernel have as modules; x86_64 results use the
   * second 8250 serial port, which is built in.
   */
  @Override
  public List<String> guestModules(String arch) {
    return arch.equals("aarch64") ? List.of("virtio_mmio", "virtio_console") : List.of();
  }

  @Override
  public List<String> volumeTransports() {
    return volumeProbe().transports();
  }

  /** The host-volume transports QEMU offers here, probed once (not cached while QEMU is missing). */
  public synchronized VolumeProbe volumeProbe() {
    if (volumes != null) {
      return volumes;
    }
    Optional<Path> binary = which.apply(QemuArgs.binaryFor("x86_64"));
    if (binary.isEmpty()) {
      return VolumeProbe.none(missing("x86_64"));
    }
    volumes = volumeProber.apply(binary.get());
    log.info("qemu: volume transports {} (left out: {})", volumes.transports(), volumes.reasons());
    return volumes;
  }

  /** The probe result (cached after the first successful probe); reasons explain rejected accelerators. */
  public synchronized AccelProbe accelProbe() {
    if (probe != null) {
      return probe;
    }
    Optional<Path> binary = which.apply(QemuArgs.binaryFor("x86_64"));
    if (binary.isEmpty()) {
      // Not cached: installing QEMU later makes the driver usable without a restart.
      return new AccelProbe(List.of(), Map.of("kvm", missing("x86_64"), "tcg", missing("x86_64")));
    }
    AccelProbe p = prober.apply(binary.get().toString());
    if (!Thread.currentThread().isInterrupted()) {
      probe = p;
    }
    return p;
  }

  /**
   * First line of {@code qemu-system-x86_64 -version}, e.g. "QEMU emulator version 7.2.22 (...)";
   * empty when QEMU is missing or does not answer.
   */
  @Override
  public synchronized String version() {
    if (version != null) {
      return version;
    }
    Optional<String> line = which.apply(QemuArgs.binaryFor("x86_64"))
        .flatMap(binary -> versionLine(runner, binary, scratch));
    line.ifPresent(v -> version = v);
    return line.orElse("");
  }

  /** First line of {@code BINARY -version}; empty when it did not run to success. */
  static Optional<String> versionLine(CommandRunner runner, Path binary, Path scratch) {
    RunResult r = runner.run(List.of(binary.toString(), "-version"), scratch, "qemu-version", VERSION_TIMEOUT);
    return r.succeeded() ? r.stdoutTail().lines().findFirst().map(String::strip) : Optional.empty();
  }

  @Override
  public BootOutcome boot(BootRequest req) throws InterruptedException {
    Path console = req.workDir().resolve("console.log");
    Path results = req.workDir().resolve("results.log");
    if (!req.arch().equals("x86_64") && !req.arch().equals("aarch64")) {
      return BootOutcome.notStarted(console, results,
          "unknown guest arch '" + req.arch() + "'; expected x86_64 or aarch64");
    }
    Optional<Path> binary = which.apply(QemuArgs.binaryFor(req.arch()));
    if (binary.isEmpty()) {
      return BootOutcome.notStarted(console, results, missing(req.arch()));
    }
    String problem = preflight(req);
    if (problem != null) {
      return BootOutcome.notStarted(console, results, problem);
    }
    String accel = chooseAccelerator(req.arch());
    if (accel == null) {
      return BootOutcome.notStarted(console, results,
          "no QEMU accelerator runs guests on this host: " + accelProbe().reasons());
    }
    String volumeProblem = volumeProblem(req.volume());
    if (volumeProblem != null) {
      return BootOutcome.notStarted(console, results, volumeProblem);
    }
    RunResult r;
    VolumeDaemon daemon = null;
    PinnedLaunch.Pinned pinned = null;
    Path qmp = null;
    try (QemuVolume volume = req.volume() == null ? null : QemuVolume.prepare(req.volume())) {
      try {
        qmp = req.pinVcpus() ? PinnedLaunch.qmpSocket(req.workDir()) : null;
      } catch (IOException e) {
        return BootOutcome.notStarted(console, results, "cannot place the QMP socket for pinning: " + e);
      }
      List<String> argv;
      try {
        argv = QemuArgs.build(new QemuLaunch(binary.get().toString(), accel, req.arch(), req.runId(),
            req.kernel(), req.initrd(), req.vcpus(), req.memoryMib(), req.guestParams(),
            req.cmdlineExtra(), console, results, qmp, volume == null ? null : volume.launch()));
      } catch (IllegalArgumentException e) {
        return BootOutcome.notStarted(console, results, e.getMessage());
      }
      try {
        Files.createDirectories(req.workDir());
      } catch (IOException e) {
        return BootOutcome.notStarted(console, results, "cannot create work directory " + req.workDir() + ": " + e);
      }
      if (volume != null) {
        volume.start(volumeProbe().virtiofsd(), req.workDir());
      }
      log.info("boot {}: {} accel={} vcpus={}{} mem={}MiB volume={}", req.runId(), req.kernel(), accel, req.vcpus(),
          req.pinVcpus() ? " pinned" : "", req.memoryMib(),
          req.volume() == null ? "-" : req.volume().transport().wire());
      List<OutputCap> caps = GuestOutputCaps.of(console, results);
      EndMarker end = GuestOutputCaps.endOf(results);
      if (qmp == null) {
        r = runner.run(argv, req.workDir(), "qemu", req.timeout(), caps, end);
      } else {
        pinned = PinnedLaunch.run(runner, pinner, argv, req, qmp, caps, end);
        r = pinned.qemu();
      }
      daemon = volume == null ? null : volume.stop();
    } catch (IOException | IllegalArgumentException e) {
      return BootOutcome.notStarted(console, results, "host volume: " + e.getMessage());
    } finally {
      PinnedLaunch.deleteQuietly(qmp);
    }
    if (pinned != null && !pinned.pin().pinned()) {
      return pinFailed(req, accel, binary.get(), pinned);
    }
    if (r.timedOut()) {
      log.warn("boot {}: guest still running after {}; VM killed (console: {})", req.runId(), req.timeout(), console);
    }
    if (r.overCap() != null) {
      log.warn("boot {}: {}; VM killed", req.runId(), r.overCap());
    }
    if (r.stoppedAfterEnd()) {
      log.warn("boot {}: the guest did not power off within {} of its last result (a kernel without ACPI only"
          + " halts); VM stopped, results kept", req.runId(), GuestOutputCaps.POWEROFF_GRACE);
    }
    if (r.interrupted()) {
      Thread.interrupted(); // the exception below carries the interrupt
      throw new InterruptedException("boot " + req.runId() + " interrupted; VM killed");
    }
    String consoleTail = TextTail.of(console, TextTail.DEFAULT_LINES);
    return new BootOutcome(accel, r.exitCode(), r.timedOut(), r.wall(), console, results, consoleTail,
        launchError(binary.get(), r, consoleTail), r.overCap(), pinned == null ? List.of() : pinned.pin().hostCpus(),
        daemon);
  }

  /**
   * The boot of a VM whose vCPUs could not be pinned: it never ran its guest, so it fails like a
   * VM that did not start (INFRA: the host's fault). QEMU's own error wins when it exited first.
   */
  private static BootOutcome pinFailed(BootRequest req, String accel, Path binary, PinnedLaunch.Pinned pinned) {
    Path console = req.workDir().resolve("console.log");
    Path results = req.workDir().resolve("results.log");
    RunResult r = pinned.qemu();
    String qemuError = r.interrupted() ? null : launchError(binary, r, "");
    String why = qemuError != null ? qemuError : "cannot pin vCPUs: " + pinned.pin().problem();
    log.warn("boot {}: {}; VM killed", req.runId(), why);
    return new BootOutcome(accel, -1, false, r.wall(), console, results,
        TextTail.of(console, TextTail.DEFAULT_LINES), why, null);
  }

  /** Why this host cannot share {@code volume}, or null (also for no volume). */
  private String volumeProblem(VolumeShare volume) {
    if (volume == null) {
      return null;
    }
    VolumeProbe p = volumeProbe();
    if (!p.transports().contains(volume.transport().wire())) {
      return "volume transport " + volume.transport().wire() + " is not available on this host: "
          + p.reasons().getOrDefault(volume.transport().wire(), "not probed");
    }
    return null;
  }

  /** Kernel and initrd problems found before anything is started, or null. */
  private static String preflight(BootRequest req) {
    KernelImage.Inspection k = KernelImage.inspect(req.kernel());
    if (!k.ok()) {
      return k.problem();
    }
    if (!k.arch().equals(req.arch())) {
      return "kernel " + req.kernel() + " is an " + k.arch() + " image but the boot asks for arch "
          + req.arch() + "; pass a kernel built for " + req.arch();
    }
    if (!Files.isRegularFile(req.initrd()) || !Files.isReadable(req.initrd())) {
      return "initrd " + req.initrd() + " is missing or unreadable; build the initramfs first";
    }
    return null;
  }

  private String chooseAccelerator(String arch) {
    AccelProbe p = accelProbe();
    if (arch.equals(hostArch)) {
      return p.best();
    }
    return p.working().contains("tcg") ? "tcg" : null;
  }

  /**
   * QEMU exits non-zero only for its own errors (a guest power-off or panic with
   * -no-reboot exits 0), so a non-zero exit with nothing on the console means the VM never
   * ran, unless we killed it: report QEMU's own message.
   */
  private static String launchError(Path binary, RunResult r, String consoleTail) {
    if (r.launchError() != null) {
      return r.launchError();
    }
    if (!r.timedOut() && r.overCap() == null && !r.stoppedAfterEnd() && r.exitCode() != 0 && consoleTail.isBlank()) {
      return binary.getFileName() + " failed before the guest started (exit " + r.exitCode() + "): "
          + (r.stderrTail().isBlank() ? "no message" : r.stderrTail().strip());
    }
    return null;
  }

  private static String missing(String arch) {
    String pkg = arch.equals("x86_64") ? "qemu-system-x86" : "qemu-system-arm";
    return QemuArgs.binaryFor(arch) + " not found: apt-get install " + pkg;
  }
}
