package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.Executables;
import dev.abfleet.worker.process.OutputCap;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.GuestOutputCaps;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
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
 * driver pins its vCPU threads ({@link VcpuPinner}) and only then lets the guest run.
 */
public final class QemuDriver implements VmDriver {

  private static final Logger log = LoggerFactory.getLogger(QemuDriver.class);

  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);
  /** Longest wait for QEMU's QMP socket and the pinning of a paused VM. */
  static final Duration PIN_TIMEOUT = Duration.ofSeconds(30);
  /** Longest unix socket path used (Linux allows 107 bytes, macOS 103). */
  private static final int MAX_SOCKET_PATH = 100;

  private final CommandRunner runner;
  private final Function<String, Optional<Path>> which;
  private final Function<String, AccelProbe> prober;
  private final String hostArch;
  private final Path scratch;
  private final VcpuPinner pinner;

  private AccelProbe probe;   // guarded by this
  private String version;     // guarded by this

  /**
   * @param runner   starts QEMU
   * @param which    resolves a program name to its path (empty when not installed)
   * @param prober   given the qemu-system-x86_64 path, probes the accelerators (called once)
   * @param hostArch the host CPU architecture in guest terms ({@code x86_64} or {@code aarch64})
   * @param scratch  directory for probe images and version output
   */
  public QemuDriver(CommandRunner runner, Function<String, Optional<Path>> which,
      Function<String, AccelProbe> prober, String hostArch, Path scratch) {
    this(runner, which, prober, hostArch, scratch, new VcpuPinner(runner, which, VcpuPinner::ownCpus));
  }

  /** As above; {@code pinner} pins the vCPUs of boots that ask for it. */
  public QemuDriver(CommandRunner runner, Function<String, Optional<Path>> which,
      Function<String, AccelProbe> prober, String hostArch, Path scratch, VcpuPinner pinner) {
    this.runner = runner;
    this.which = which;
    this.prober = prober;
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
    return new QemuDriver(runner, Executables::onPath, probe, hostArch(System.getProperty("os.arch")), scratch);
  }

  /** Java's {@code os.arch} in guest terms: {@code amd64} is {@code x86_64}, {@code arm64} is {@code aarch64}. */
  public static String hostArch(String osArch) {
    return switch (osArch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch64";
      default -> osArch;
    };
  }

  @Override
  public String name() {
    return "qemu";
  }

  @Override
  public List<String> accelerators() {
    return accelProbe().working();
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
    List<String> argv;
    Path qmp = null;
    try {
      Files.createDirectories(req.workDir());
      qmp = req.pinVcpus() ? qmpSocket(req.workDir()) : null;
      argv = QemuArgs.build(new QemuLaunch(binary.get().toString(), accel, req.arch(), req.runId(),
          req.kernel(), req.initrd(), req.vcpus(), req.memoryMib(), req.guestParams(),
          req.cmdlineExtra(), console, results, qmp));
    } catch (IllegalArgumentException e) {
      return BootOutcome.notStarted(console, results, e.getMessage());
    } catch (IOException e) {
      return BootOutcome.notStarted(console, results, "cannot create work directory " + req.workDir() + ": " + e);
    }
    log.info("boot {}: {} accel={} vcpus={}{} mem={}MiB", req.runId(), req.kernel(), accel, req.vcpus(),
        req.pinVcpus() ? " pinned" : "", req.memoryMib());
    List<OutputCap> caps = GuestOutputCaps.of(console, results);
    if (qmp == null) {
      return outcome(req, accel, binary.get(), runner.run(argv, req.workDir(), "qemu", req.timeout(), caps), List.of());
    }
    try {
      Pinned pinned = runPinned(argv, req, qmp, caps);
      if (!pinned.pin().pinned()) {
        return pinFailed(req, accel, binary.get(), pinned);
      }
      return outcome(req, accel, binary.get(), pinned.qemu(), pinned.pin().hostCpus());
    } finally {
      deleteQuietly(qmp);
    }
  }

  private BootOutcome outcome(BootRequest req, String accel, Path binary, RunResult r, List<Integer> vcpuHostCpus)
      throws InterruptedException {
    Path console = req.workDir().resolve("console.log");
    Path results = req.workDir().resolve("results.log");
    if (r.timedOut()) {
      log.warn("boot {}: guest still running after {}; VM killed (console: {})", req.runId(), req.timeout(), console);
    }
    if (r.overCap() != null) {
      log.warn("boot {}: {}; VM killed", req.runId(), r.overCap());
    }
    if (r.interrupted()) {
      Thread.interrupted(); // the exception below carries the interrupt
      throw new InterruptedException("boot " + req.runId() + " interrupted; VM killed");
    }
    String consoleTail = TextTail.of(console, TextTail.DEFAULT_LINES);
    return new BootOutcome(accel, r.exitCode(), r.timedOut(), r.wall(), console, results, consoleTail,
        launchError(binary, r, consoleTail), r.overCap(), vcpuHostCpus);
  }

  /** QEMU's run and how pinning its vCPUs went. */
  private record Pinned(RunResult qemu, VcpuPinner.Result pin) {}

  /**
   * Runs the paused QEMU on a thread of its own while this thread pins its vCPUs and continues
   * it; a VM that cannot be pinned is killed before its guest ran.
   */
  private Pinned runPinned(List<String> argv, BootRequest req, Path qmp, List<OutputCap> caps)
      throws InterruptedException {
    FutureTask<RunResult> qemu = new FutureTask<>(() -> runner.run(argv, req.workDir(), "qemu", req.timeout(), caps));
    Thread thread = new Thread(qemu, "qemu-" + req.runId());
    thread.setDaemon(true);
    thread.start();
    VcpuPinner.Result pin;
    try {
      long deadline = System.nanoTime() + Collections.min(List.of(PIN_TIMEOUT, req.timeout())).toNanos();
      pin = pinner.pin(qmp, req.vcpus(), req.workDir(), deadline, qemu::isDone);
    } catch (InterruptedException e) {
      thread.interrupt();
      awaitUninterruptibly(qemu);
      throw e;
    }
    if (!pin.pinned()) {
      thread.interrupt();
      return new Pinned(awaitUninterruptibly(qemu), pin);
    }
    try {
      return new Pinned(qemu.get(), pin);
    } catch (InterruptedException e) {
      thread.interrupt();
      awaitUninterruptibly(qemu);
      throw new InterruptedException("boot " + req.runId() + " interrupted; VM killed");
    } catch (ExecutionException e) {
      throw new IllegalStateException("running QEMU failed", e.getCause());
    }
  }

  /**
   * The boot of a VM whose vCPUs could not be pinned: it never ran its guest, so it fails like a
   * VM that did not start (INFRA: the host's fault). QEMU's own error wins when it exited first.
   */
  private BootOutcome pinFailed(BootRequest req, String accel, Path binary, Pinned pinned) {
    Path console = req.workDir().resolve("console.log");
    Path results = req.workDir().resolve("results.log");
    RunResult r = pinned.qemu();
    String qemuError = r.interrupted() ? null : launchError(binary, r, "");
    String why = qemuError != null ? qemuError : "cannot pin vCPUs: " + pinned.pin().problem();
    log.warn("boot {}: {}; VM killed", req.runId(), why);
    return new BootOutcome(accel, -1, false, r.wall(), console, results,
        TextTail.of(console, TextTail.DEFAULT_LINES), why, null);
  }

  /** Waits for QEMU to end (it is being killed), keeping any interrupt for the caller. */
  private static RunResult awaitUninterruptibly(FutureTask<RunResult> qemu) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return qemu.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw new IllegalStateException("running QEMU failed", e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The QMP socket of a boot: in its work directory, or in a fresh temporary directory when that
   * path is too long for a unix socket (108 bytes on Linux, 104 on macOS).
   */
  static Path qmpSocket(Path workDir) throws IOException {
    Path inWorkDir = workDir.toAbsolutePath().resolve("qmp.sock");
    Files.deleteIfExists(inWorkDir);
    if (inWorkDir.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length < MAX_SOCKET_PATH) {
      return inWorkDir;
    }
    return Files.createTempDirectory("abfleet-qmp").resolve("qmp.sock");
  }

  private static void deleteQuietly(Path socket) {
    try {
      Files.deleteIfExists(socket);
      if (socket.getParent().getFileName().toString().startsWith("abfleet-qmp")) {
        Files.deleteIfExists(socket.getParent());
      }
    } catch (IOException e) {
      // a stale socket file in a run directory harms nothing
    }
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
    if (!r.timedOut() && r.overCap() == null && r.exitCode() != 0 && consoleTail.isBlank()) {
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
