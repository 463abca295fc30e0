package dev.abfleet.worker.run;

import dev.abfleet.model.Arch;

import dev.abfleet.model.Harnesses;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.ConsoleLogs;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.guest.ConsoleScan;
import dev.abfleet.worker.guest.GuestCounters;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.guest.GuestImageException;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.guest.HarnessParams;
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
 * One boot of the built-in harness or a workload ({@link WorkloadRun}): stage the kernel (and
 * initramfs) by hash before the measured window, boot a fresh VM, read the dedicated results
 * channel, classify. The console and results logs of every boot stay in
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

  @Override
  public WorkerMessage execute(BlockAssignment block, RunAssignment run) throws InterruptedException {
    RunTelemetry.Builder telemetry = RunTelemetry.newBuilder()
        .setHostId(settings.hostId())
        .setHypervisor(run.getHypervisor().isEmpty() ? "qemu" : run.getHypervisor());
    VmDriver driver = drivers.get(telemetry.getHypervisor());
    if (driver == null || driver.accelerators().isEmpty()) {
      return failure(block, run, telemetry, FailureKind.INFRA,
          "hypervisor '" + telemetry.getHypervisor() + "' is not usable on host " + settings.hostId(), "");
    }
    VolumePlan.Decision volume = VolumePlan.decide(run.getBenchmark().getVolume(),
        run.getBoot().getVolumeTransport().isEmpty() ? run.getBenchmark().getTransport() : run.getBoot().getVolumeTransport(),
        driver.volumeTransports(), run.getBoot().getVolumeOptions(), run.getBoot().getVolumeCache(), telemetry.getHypervisor(),
        settings.hostId());
    if (volume.failed()) {
      return failure(block, run, telemetry, volume.kind(), volume.problem(), "");
    }
    VolumePlan plan = volume.plan();
    if (plan != null) {
      telemetry.setVolumeTransport(plan.transport().wire()).setVolumeOptions(plan.options());
    }
    Optional<String> workloadConfig = WorkloadRun.configProblem(run.getBenchmark());
    if (workloadConfig.isPresent()) {
      return failure(block, run, telemetry, FailureKind.CONFIG, workloadConfig.get(), "");
    }
    Optional<String> badPattern = ConsoleScan.problem(run.getConsolePatternsList());
    if (badPattern.isPresent()) {
      return failure(block, run, telemetry, FailureKind.CONFIG, badPattern.get(), "");
    }
    ConsoleScan consoleScan = ConsoleScan.of(run.getConsolePatternsList());
    long stageStart = System.nanoTime();
    cache.beginRun();
    Path kernel;
    Path initrd;
    Path workDir;
    GuestModules.Selection modules;
    String guestArch;
    try {
      kernel = cache.stage(run.getBoot().getKernel().getSha256(), run.getBoot().getKernel().getUri());
      GuestInitrd.Arch arch = GuestInitrd.guestArch(run, KernelImage.inspect(kernel).arch(), Arch.host());
      if (arch.problem() != null) {
        return configFailure(block, run, telemetry, stageStart, arch.problem());
      }
      guestArch = arch.arch();
      telemetry.setGuestArch(guestArch);
      modules = selectModules(run, plan, kernel, driver.guestModules(guestArch));
      if (modules instanceof GuestModules.Selection.Unavailable u) {
        return configFailure(block, run, telemetry, stageStart, u.message());
      }
      // Layers appended after the guest image and its modules, in this order (e.g. a workload's files).
      List<Path> extraLayers = WorkloadRun.layers(cache, settings.home(), run.getBenchmark());
      GuestInitrd.Outcome image = initrds.prepare(run, guestArch,
          ((GuestModules.Selection.Ready) modules).modules(), extraLayers);
      if (image instanceof GuestInitrd.Outcome.Refused r) {
        return configFailure(block, run, telemetry, stageStart, r.message());
      }
      initrd = ((GuestInitrd.Outcome.Ready) image).initrd();
      telemetry.setGuestImageSha256(((GuestInitrd.Outcome.Ready) image).guestImageSha256());
      workDir = Files.createDirectories(settings.runsDir().resolve(run.getRunId() + "-e" + block.getLeaseEpoch()));
    } catch (IOException | RuntimeException | GuestImageException e) {
      telemetry.setStageMs(millisSince(stageStart));
      var c = RunClassifier.classify(new BootFacts(String.valueOf(e.getMessage()), null, null, false, -1, false, false,
          List.of(), List.of()));
      return failure(block, run, telemetry, c.kind(), c.message(), "");
    }
    telemetry.setStageMs(millisSince(stageStart));

    HarnessParams params = harnessParams(run);
    VolumeShare share = null;
    if (plan != null) {
      params = params.withVolume(plan.guestVolume());
      share = new VolumeShare(plan.transport(),
          settings.home().resolve("volumes").resolve(run.getRunId() + "-e" + block.getLeaseEpoch()), VolumeTransport.TAG,
          plan.cache());
    }
    BootRequest request = new BootRequest(
        run.getRunId(),
        guestArch,
        kernel,
        initrd,
        run.getBoot().getCmdlineExtra(),
        kernelArgs(params),
        Math.max(1, run.getBoot().getShape().getVcpus()),
        run.getBoot().getShape().getMemoryMib() == 0 ? 512 : run.getBoot().getShape().getMemoryMib(),
        WorkloadRun.vmTimeout(Duration.ofSeconds(run.getTimeoutS() == 0
            ? ProtocolConstants.DEFAULT_BOOT_TIMEOUT_S_VALUE : run.getTimeoutS()), run.getBenchmark()),
        workDir,
        share,
        run.getBoot().getShape().getPinVcpus());
    log.info("run {} ({}, pair {} order {}): booting", run.getRunId(), run.getArm(), block.getPairIndex(), run.getOrderInPair());
    BootOutcome outcome = boot(driver, request);
    if (consoleLogs != null) {
      telemetry.setConsoleLogSha256(consoleLogs.upload(outcome.consoleLog()));
    }
    ConsoleScan.Findings findings = scanConsole(consoleScan, outcome.consoleLog());
    telemetry.setConsoleFindings(findings.count()).addAllConsoleLines(findings.lines());
    if (findings.count() > 0) {
      log.warn("run {}: {} console line(s) matched, first: {}", run.getRunId(), findings.count(), findings.lines().get(0));
    }
    ResultsHead results = ResultsHead.read(outcome.resultsLog());
    ParsedRun parsed = GuestProtocol.parse(results.bytes());
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
    parsed.start().ifPresent(s -> {
      telemetry.setKernelRelease(s.kernelRelease());
      s.uptimeMs().ifPresent(telemetry::setBootMs);
    });

    String overCap = outcome.overCap() != null ? outcome.overCap() : results.overCap();
    if (overCap != null) {
      overCap += "; first " + FirstBytes.QUOTED + " bytes: " + FirstBytes.of(overCapFile(outcome, overCap));
    }
    WorkloadRun.Outcome workload = WorkloadRun.read(run.getBenchmark(), parsed, overCap);
    List<String> missing = new ArrayList<>();
    Set<String> measured = workload != null ? workload.measuredMetrics() : parsed.measuredMetrics();
    for (String m : requestedMetrics(run)) {
      if (!measured.contains(m)) {
        missing.add(m);
      }
    }
    var classification = RunClassifier.classify(new BootFacts(
        null,
        outcome.launchError(),
        overCap,
        outcome.timedOut(),
        outcome.exitCode(),
        parsed.start().isPresent(),
        parsed.done(),
        missing,
        parsed.harnessErrors().stream().map(e -> e.metric() + ": " + e.message()).toList(),
        parsed.setupErrors().stream().map(SetupError::describe).toList(),
        workload == null ? null : workload.problem()));
    if (!classification.ok()) {
      String message = classification.message();
      if (classification.kind() == FailureKind.CONFIG && plan != null) {
        message += setupHint(plan, modules, run);
      }
      log.warn("run {}: {} {}", run.getRunId(), classification.kind(), message);
      return failure(block, run, telemetry, classification.kind(), message, nullToEmpty(outcome.consoleTail()));
    }
    RunResult.Builder result = RunResult.newBuilder()
        .setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId())
        .setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setTelemetry(telemetry);
    for (GuestSample s : workload != null ? workload.samples() : parsed.samples()) {
      result.addSamples(MetricSample.newBuilder()
          .setMetric(s.metric())
          .setValue(s.value())
          .setUnit(s.unit())
          .setBetter(s.better().wire())
          .setIteration(s.iteration())
          .setWarmup(s.warmup()));
    }
    (workload != null ? workload.counters() : parsed.counters()).forEach(c -> result.addGuestCounters(
        telemetryOf(c)));
    parsed.parseErrors().forEach(e -> result.addParseErrors("line " + e.lineNumber() + ": " + e.message()));
    result.setParseErrorsOmitted(parsed.parseErrorsOmitted());
    if (workload != null) {
      workload.errors().forEach(e -> result.addParseErrors("line " + e.lineNumber() + ": " + e.message()));
      result.setParseErrorsOmitted(parsed.parseErrorsOmitted() + workload.errorsOmitted());
    }
    return WorkerMessage.newBuilder().setRunResult(result).build();
  }

  static MetricTelemetry telemetryOf(GuestCounters c) {
    MetricTelemetry.Builder t = MetricTelemetry.newBuilder()
        .setMetric(c.metric()).setWork(c.work()).setWorkUnit(c.workUnit())
        .putAllInterrupts(c.interrupts()).setContextSwitches(c.contextSwitches())
        .setInterruptsTotal(c.interruptsTotal())
        .addAllWakeupsPerCpu(c.wakeupsPerCpu())
        .addAllThreadRates(c.threadRates());
    c.interruptsPerCpu().forEach((row, counts) -> t.putInterruptsPerCpu(row,
        MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    c.softirqsPerCpu().forEach((row, counts) -> t.putSoftirqsPerCpu(row,
        MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    return t.build();
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
  private static BootOutcome boot(VmDriver driver, BootRequest request) throws InterruptedException {
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
  private static WorkerMessage configFailure(BlockAssignment block, RunAssignment run, RunTelemetry.Builder telemetry,
      long stageStart, String message) {
    telemetry.setStageMs(millisSince(stageStart));
    log.warn("run {}: CONFIG {}", run.getRunId(), message);
    return failure(block, run, telemetry, FailureKind.CONFIG, message, "");
  }

  private static WorkerMessage failure(BlockAssignment block, RunAssignment run, RunTelemetry.Builder telemetry,
      FailureKind kind, String message, String consoleTail) {
    return WorkerMessage.newBuilder().setRunFailure(RunFailure.newBuilder()
        .setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId())
        .setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setKind(kind)
        .setMessage(message)
        .setConsoleTail(consoleTail)
        .setTelemetry(telemetry))
        .build();
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
