package dev.abfleet.worker.run;

import dev.abfleet.model.Arch;

import dev.abfleet.model.Harnesses;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.ConsoleLogs;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.guest.ConsoleScan;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.guest.GuestImageException;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.HarnessParams;
import dev.abfleet.worker.guest.ParseError;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.guest.SetupError;
import dev.abfleet.worker.modules.GuestModules;
import dev.abfleet.worker.modules.ModulePack;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One boot of the built-in harness or a workload ({@link WorkloadRun}) in three stages:
 * {@code stage} checks the run and stages the kernel (and initramfs) by hash before the measured
 * window, {@code boot} boots a fresh VM, {@code judge} reads the dedicated results channel,
 * classifies and makes the {@link RunReport}. The console and results logs of every boot stay in
 * {@code runs/<host>/<run>-e<epoch>/}. A boot whose
 * console or results passed its {@link dev.abfleet.worker.vm.GuestOutputCaps cap} is a HARNESS
 * failure: its results are not used.
 */
public final class GuestRunProcedure implements RunProcedure {
  private static final Logger log = LoggerFactory.getLogger(GuestRunProcedure.class);

  private final WorkerSettings settings;
  private final Map<String, VmDriver> drivers;
  private final ArtifactCache cache;
  private final GuestModules guestModules;
  private final GuestInitrd initrds;
  private final ConsoleLogs consoleLogs;

  public GuestRunProcedure(WorkerSettings settings, Map<String, VmDriver> drivers) {
    this(settings, drivers, (ControllerArtifacts) null);
  }

  /**
   * @param controllerStore fetches {@code abfleet:sha256:} artifacts and takes each boot's console
   *     log; null = neither (local paths only, logs stay on this host)
   */
  public GuestRunProcedure(WorkerSettings settings, Map<String, VmDriver> drivers, ControllerArtifacts controllerStore) {
    this(settings, drivers, arch -> GuestImage.base(settings.home(), arch), controllerStore);
  }

  /** @param images builds the guest image for an architecture when a run carries none */
  GuestRunProcedure(WorkerSettings settings, Map<String, VmDriver> drivers, GuestInitrd.Builder images) {
    this(settings, drivers, images, null);
  }

  private GuestRunProcedure(WorkerSettings settings, Map<String, VmDriver> drivers, GuestInitrd.Builder images,
      ControllerArtifacts controllerStore) {
    this.settings = settings;
    this.drivers = drivers;
    this.cache = new ArtifactCache(settings.home().resolve("artifacts"), settings.artifactCacheMaxBytes(),
        controllerStore);
    this.consoleLogs = controllerStore == null ? null : new ConsoleLogs(controllerStore);
    this.guestModules = new GuestModules(settings.home(), new ProcessRunner());
    this.initrds = new GuestInitrd(cache, settings.home(), settings.buildsImages(), images);
  }

  /** What staging gave: all the boot needs, or why the run cannot boot. */
  private sealed interface Staged {
    /**
     * @param plan the host volume; null = the benchmark runs on the guest's tmpfs
     * @param modules the modules {@link #selectModules} chose
     * @param workDir where the boot's console and results logs go
     */
    record Ready(VmDriver driver, VolumePlan plan, ConsoleScan consoleScan, String guestArch, Path kernel, Path initrd,
        GuestModules.Selection.Ready modules, Path workDir) implements Staged {}

    record Refused(RunReport.Failed report) implements Staged {}
  }

  @Override
  public RunReport execute(BlockAssignment block, RunAssignment run) throws InterruptedException {
    RunTelemetry.Builder telemetry = RunTelemetry.newBuilder()
        .setHostId(settings.hostId())
        .setHypervisor(run.getHypervisor().isEmpty() ? "qemu" : run.getHypervisor());
    Staged staged = stage(block, run, telemetry);
    if (staged instanceof Staged.Refused refused) {
      return refused.report();
    }
    Staged.Ready ready = (Staged.Ready) staged;
    log.info("run {} ({}, pair {} order {}): booting", run.getRunId(), run.getArm(), block.getPairIndex(), run.getOrderInPair());
    BootOutcome outcome = boot(block, run, ready, telemetry);
    return judge(run, ready, outcome, telemetry);
  }

  /**
   * Checks the run can boot here as configured, then stages its kernel, guest image, modules and
   * layers by hash (timed: RunTelemetry.stage_ms) and makes its work directory.
   */
  private Staged stage(BlockAssignment block, RunAssignment run, RunTelemetry.Builder telemetry)
      throws InterruptedException {
    VmDriver driver = drivers.get(telemetry.getHypervisor());
    if (driver == null || driver.accelerators().isEmpty()) {
      return refused(telemetry, FailureKind.INFRA,
          "hypervisor '" + telemetry.getHypervisor() + "' is not usable on host " + settings.hostId());
    }
    VolumePlan.Decision volume = VolumePlan.decide(run.getBenchmark().getVolume(),
        run.getBoot().getVolumeTransport().isEmpty() ? run.getBenchmark().getTransport() : run.getBoot().getVolumeTransport(),
        driver.volumeTransports(), run.getBoot().getVolumeOptions(), run.getBoot().getVolumeCache(), telemetry.getHypervisor(),
        settings.hostId());
    if (volume.problem().isPresent()) {
      return refused(telemetry, volume.kind(), volume.problem().get());
    }
    VolumePlan plan = volume.plan();
    if (plan != null) {
      telemetry.setVolumeTransport(plan.transport().wire()).setVolumeOptions(plan.options());
    }
    Optional<String> configProblem = WorkloadRun.configProblem(run.getBenchmark())
        .or(() -> ConsoleScan.problem(run.getConsolePatternsList()));
    if (configProblem.isPresent()) {
      return refused(telemetry, FailureKind.CONFIG, configProblem.get());
    }
    ConsoleScan consoleScan = ConsoleScan.of(run.getConsolePatternsList());
    long stageStart = System.nanoTime();
    cache.beginRun();
    try {
      return stageArtifacts(block, run, driver, plan, consoleScan, telemetry, stageStart);
    } catch (IOException | RuntimeException | GuestImageException e) {
      telemetry.setStageMs(millisSince(stageStart));
      var c = RunClassifier.classify(BootFacts.stagingFailed(String.valueOf(e.getMessage())));
      return refused(telemetry, c.kind(), c.message());
    }
  }

  /** The staging proper, timed from {@code stageStart}; what it cannot do as configured is a CONFIG failure. */
  private Staged stageArtifacts(BlockAssignment block, RunAssignment run, VmDriver driver, VolumePlan plan,
      ConsoleScan consoleScan, RunTelemetry.Builder telemetry, long stageStart)
      throws IOException, GuestImageException, InterruptedException {
    Path kernel = cache.stage(run.getBoot().getKernel().getSha256(), run.getBoot().getKernel().getUri());
    GuestInitrd.Arch arch = GuestInitrd.guestArch(run, KernelImage.inspect(kernel).arch(), Arch.host());
    if (arch.problem().isPresent()) {
      return configRefused(run, telemetry, stageStart, arch.problem().get());
    }
    String guestArch = arch.arch();
    telemetry.setGuestArch(guestArch);
    GuestModules.Selection modules = selectModules(run, plan, kernel, driver.guestModules(guestArch));
    if (modules instanceof GuestModules.Selection.Unavailable u) {
      return configRefused(run, telemetry, stageStart, u.message());
    }
    // Layers appended after the guest image and its modules, in this order (e.g. a workload's files).
    List<Path> extraLayers = WorkloadRun.layers(cache, settings.home(), run.getBenchmark());
    GuestModules.Selection.Ready ready = (GuestModules.Selection.Ready) modules;
    GuestInitrd.Outcome image = initrds.prepare(run, guestArch, ready.modules(), extraLayers);
    if (image instanceof GuestInitrd.Outcome.Refused r) {
      return configRefused(run, telemetry, stageStart, r.message());
    }
    GuestInitrd.Outcome.Ready initrd = (GuestInitrd.Outcome.Ready) image;
    telemetry.setGuestImageSha256(initrd.guestImageSha256());
    Path workDir = Files.createDirectories(settings.runsDir().resolve(run.getRunId() + "-e" + block.getLeaseEpoch()));
    telemetry.setStageMs(millisSince(stageStart));
    return new Staged.Ready(driver, plan, consoleScan, guestArch, kernel, initrd.initrd(), ready, workDir);
  }

  /** Boots the staged run and records how the VM ran; its console log goes to the controller when there is one. */
  private BootOutcome boot(BlockAssignment block, RunAssignment run, Staged.Ready ready, RunTelemetry.Builder telemetry)
      throws InterruptedException {
    BootOutcome outcome = bootOnFreshVolume(ready.driver(), bootRequest(block, run, ready));
    if (consoleLogs != null) {
      telemetry.setConsoleLogSha256(consoleLogs.upload(outcome.consoleLog()));
    }
    telemetry.setAccelerator(nullToEmpty(outcome.accelerator()))
        .setRunMs(outcome.wall().toMillis())
        .setExitCode(outcome.exitCode())
        .addAllVcpuHostCpus(outcome.vcpuHostCpus());
    if (outcome.volumeDaemon() != null) {
      telemetry.setVolumeDaemon(outcome.volumeDaemon().name())
          .setVolumeDaemonOptions(outcome.volumeDaemon().options())
          .setVolumeDaemonCpuMs(outcome.volumeDaemon().cpuMs())
          .setVolumeDaemonThreads(outcome.volumeDaemon().threads());
    }
    return outcome;
  }

  private BootRequest bootRequest(BlockAssignment block, RunAssignment run, Staged.Ready ready) {
    HarnessParams params = harnessParams(run);
    VolumeShare share = null;
    if (ready.plan() != null) {
      params = params.withVolume(ready.plan().guestVolume());
      share = new VolumeShare(ready.plan().transport(),
          settings.home().resolve("volumes").resolve(run.getRunId() + "-e" + block.getLeaseEpoch()), VolumeTransport.TAG,
          ready.plan().cache());
    }
    return new BootRequest(
        run.getRunId(),
        ready.guestArch(),
        ready.kernel(),
        ready.initrd(),
        run.getBoot().getCmdlineExtra(),
        kernelArgs(params),
        Math.max(1, run.getBoot().getShape().getVcpus()),
        run.getBoot().getShape().getMemoryMib() == 0 ? 512 : run.getBoot().getShape().getMemoryMib(),
        WorkloadRun.vmTimeout(Duration.ofSeconds(run.getTimeoutS() == 0
            ? ProtocolConstants.DEFAULT_BOOT_TIMEOUT_S_VALUE : run.getTimeoutS()), run.getBenchmark()),
        ready.workDir(),
        share,
        run.getBoot().getShape().getPinVcpus());
  }

  /** Reads what the guest reported (console findings, results), classifies the boot and makes its report. */
  private RunReport judge(RunAssignment run, Staged.Ready ready, BootOutcome outcome, RunTelemetry.Builder telemetry) {
    ConsoleScan.Findings findings = scanConsole(ready.consoleScan(), outcome.consoleLog());
    telemetry.setConsoleFindings(findings.count()).addAllConsoleLines(findings.lines());
    if (findings.count() > 0) {
      log.warn("run {}: {} console line(s) matched, first: {}", run.getRunId(), findings.count(), findings.lines().get(0));
    }
    ResultsHead results = ResultsHead.read(outcome.resultsLog());
    ParsedRun parsed = GuestProtocol.parse(results.bytes());
    parsed.start().ifPresent(s -> {
      telemetry.setKernelRelease(s.kernelRelease());
      s.uptimeMs().ifPresent(telemetry::setBootMs);
    });
    Optional<String> overCap = overCap(outcome, results);
    WorkloadRun.Outcome workload = WorkloadRun.read(run.getBenchmark(), parsed, overCap);
    var classification = RunClassifier.classify(facts(run, outcome, parsed, workload, overCap));
    if (!classification.ok()) {
      String message = classification.message();
      if (classification.kind() == FailureKind.CONFIG && ready.plan() != null) {
        message += setupHint(ready.plan(), ready.modules(), run);
      }
      log.warn("run {}: {} {}", run.getRunId(), classification.kind(), message);
      return new RunReport.Failed(classification.kind(), message, nullToEmpty(outcome.consoleTail()), telemetry.build());
    }
    return measured(parsed, workload, telemetry.build());
  }

  /** What the classifier needs to know of a finished boot. */
  private static BootFacts facts(RunAssignment run, BootOutcome outcome, ParsedRun parsed, WorkloadRun.Outcome workload,
      Optional<String> overCap) {
    Set<String> measured = workload != null ? workload.measuredMetrics() : parsed.measuredMetrics();
    return BootFacts.exited(outcome.exitCode())
        .launchError(Optional.ofNullable(outcome.launchError()))
        .outputOverCap(overCap)
        .timedOut(outcome.timedOut())
        .harness(parsed.start().isPresent(), parsed.done())
        .missingMetrics(requestedMetrics(run).stream().filter(m -> !measured.contains(m)).toList())
        .harnessErrors(parsed.harnessErrors().stream().map(e -> e.metric() + ": " + e.message()).toList())
        .setupErrors(parsed.setupErrors().stream().map(SetupError::describe).toList())
        .workloadProblem(workload == null ? Optional.empty() : workload.problem())
        .build();
  }

  /** The samples, counters and bad lines of a boot that measured what it was asked to. */
  private static RunReport.Measured measured(ParsedRun parsed, WorkloadRun.Outcome workload, RunTelemetry telemetry) {
    List<String> parseErrors = new ArrayList<>(describe(parsed.parseErrors()));
    if (workload == null) {
      return new RunReport.Measured(parsed.samples(), parsed.counters(), parseErrors, parsed.parseErrorsOmitted(),
          telemetry);
    }
    parseErrors.addAll(describe(workload.errors()));
    return new RunReport.Measured(workload.samples(), workload.counters(), parseErrors,
        parsed.parseErrorsOmitted() + workload.errorsOmitted(), telemetry);
  }

  private static List<String> describe(List<ParseError> errors) {
    return errors.stream().map(e -> "line " + e.lineNumber() + ": " + e.message()).toList();
  }

  /** Which output passed its cap and how it began; empty when none did. */
  private static Optional<String> overCap(BootOutcome outcome, ResultsHead results) {
    Optional<String> which = Optional.ofNullable(outcome.overCap()).or(results::overCap);
    return which.map(w -> w + "; first " + FirstBytes.QUOTED + " bytes: " + FirstBytes.of(overCapFile(outcome, w)));
  }

  /**
   * The modules the guest needs: those of the driver's devices, the volume transport's and the
   * arm's, from the tree the client uploaded (staged and unpacked once), else the tree the arm
   * names or the one beside the kernel as the arm gave it (the staged copy has no tree beside it).
   * None for an arm with its own initrd: only the built-in /init loads modules.
   */
  private GuestModules.Selection selectModules(RunAssignment run, VolumePlan plan, Path stagedKernel,
      List<String> forDevices) throws IOException, InterruptedException {
    if (!run.getBoot().getInitrd().getSha256().isEmpty()) {
      return new GuestModules.Selection.Ready(List.of(), null);
    }
    Path kernel = ArtifactCache.sourcePath(run.getBoot().getKernel().getUri()).orElse(stagedKernel);
    String modulesDir = run.getBoot().getModulesDir();
    String treeSha = run.getBoot().getModulesTree().getSha256();
    if (!treeSha.isEmpty()) {
      Path archive = cache.stage(treeSha, run.getBoot().getModulesTree().getUri());
      modulesDir = ModulePack.unpack(archive, treeSha, settings.home()).dir().toString();
    }
    return guestModules.select(new GuestModules.Request(kernel, modulesDir,
        plan == null ? List.of() : plan.transport().modules(),
        plan == null ? "" : plan.transport().wire(),
        run.getBoot().getModulesList(), forDevices));
  }

  /** Boots {@code request}; its host volume, if any, is made empty before and removed after. */
  private static BootOutcome bootOnFreshVolume(VmDriver driver, BootRequest request) throws InterruptedException {
    if (request.volume() == null) {
      return driver.boot(request);
    }
    Path dir = request.volume().hostDir();
    try {
      freshDirectory(dir);
      return driver.boot(request);
    } catch (IOException e) {
      return BootOutcome.notStarted(request.workDir().resolve("console.log"), request.workDir().resolve("results.log"),
          "cannot make the host volume " + dir + ": " + e);
    } finally {
      removeQuietly(dir);
    }
  }

  /** What to do about a guest that could not mount its volume, when no module tree was used. */
  private static String setupHint(VolumePlan plan, GuestModules.Selection modules, RunAssignment run) {
    if (modules instanceof GuestModules.Selection.Ready r && r.tree() == null && run.getBoot().getInitrd().getSha256().isEmpty()) {
      return " (no module tree lies beside " + run.getBoot().getKernel().getUri() + ", so no module was loaded: set the arm's"
          + " modules_dir, or use a kernel with " + plan.transport().wire() + ", e.g. "
          + GuestModules.KERNEL_WITH_VOLUME_MODULES + ")";
    }
    return "";
  }

  /** An empty directory at {@code dir}: whatever an earlier attempt of the run left there goes. */
  private static void freshDirectory(Path dir) throws IOException {
    CacheFiles.deleteTree(dir);
    Files.createDirectories(dir);
  }

  private static void removeQuietly(Path dir) {
    try {
      CacheFiles.deleteTree(dir);
    } catch (IOException e) {
      log.warn("cannot remove the host volume {}: {}", dir, e.toString());
    }
  }

  /** The harness's kernel arguments after {@link ConsoleScan#LOGLEVEL_ARG}, which the arm's extras can override. */
  private static List<String> kernelArgs(HarnessParams params) {
    List<String> args = new ArrayList<>();
    args.add(ConsoleScan.LOGLEVEL_ARG);
    args.addAll(params.kernelArgs());
    return args;
  }

  /** The findings in the boot's console log; none when it was not written or cannot be read. */
  private static ConsoleScan.Findings scanConsole(ConsoleScan scan, Path console) {
    if (console == null || !Files.isRegularFile(console)) {
      return ConsoleScan.Findings.NONE;
    }
    try {
      return scan.scan(new String(Files.readAllBytes(console), java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      log.warn("cannot scan the console log {}: {}", console, e.toString());
      return ConsoleScan.Findings.NONE;
    }
  }

  /** The harness parameters; each driver adds where its results channel is in the guest. */
  static HarnessParams harnessParams(RunAssignment run) {
    var b = run.getBenchmark();
    // A workload's metrics are its own: they never reach fleetbench.
    return new HarnessParams(b.hasWorkload() ? List.of() : b.getMetricsList(), b.getIterations(), b.getIterationMs(),
        b.getWarmupIterations(), "", "", b.getFiles(), "cold".equals(b.getCache()))
        .withLoad(new HarnessParams.Load(b.getThreads(), b.getSeqSizeMib(), b.getFileSize()));
  }

  private static List<String> requestedMetrics(RunAssignment run) {
    if (run.getBenchmark().getMetricsCount() > 0) {
      return run.getBenchmark().getMetricsList();
    }
    if (run.getBenchmark().hasWorkload()) {
      return List.of(); // it reports what it measures; only metrics the benchmark names are required
    }
    return Harnesses.metrics(run.getBenchmark().getHarness()).stream().map(Harnesses.MetricDef::name).toList();
  }

  /** A run that cannot boot as configured, found while staging. */
  private static Staged configRefused(RunAssignment run, RunTelemetry.Builder telemetry, long stageStart,
      String message) {
    telemetry.setStageMs(millisSince(stageStart));
    log.warn("run {}: CONFIG {}", run.getRunId(), message);
    return refused(telemetry, FailureKind.CONFIG, message);
  }

  /** A run that fails before its VM starts: no console tail. */
  private static Staged refused(RunTelemetry.Builder telemetry, FailureKind kind, String message) {
    return new Staged.Refused(new RunReport.Failed(kind, message, "", telemetry.build()));
  }

  private static long millisSince(long nanoStart) {
    return (System.nanoTime() - nanoStart) / 1_000_000;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The file a cap message is about: it starts with that file's name. */
  private static Path overCapFile(BootOutcome outcome, String overCap) {
    Path console = outcome.consoleLog();
    return console != null && overCap.startsWith(console.getFileName().toString()) ? console : outcome.resultsLog();
  }
}
