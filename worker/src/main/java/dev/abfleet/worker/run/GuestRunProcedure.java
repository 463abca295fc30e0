package dev.abfleet.worker.run;

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
import dev.abfleet.worker.HostFacts;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.guest.HarnessParams;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One boot of the built-in harness: stage the kernel (and initramfs) by hash before the
 * measured window, boot a fresh VM, read the dedicated results channel, classify. The console
 * and results logs of every boot stay in {@code runs/<host>/<run>-e<epoch>/}. A boot whose
 * console or results passed its {@link dev.abfleet.worker.vm.GuestOutputCaps cap} is a HARNESS
 * failure: its results are not used.
 */
public final class GuestRunProcedure implements RunProcedure {
  private static final Logger log = LoggerFactory.getLogger(GuestRunProcedure.class);

  private final WorkerSettings settings;
  private final Map<String, VmDriver> drivers;
  private final ArtifactCache cache;

  public GuestRunProcedure(WorkerSettings settings, Map<String, VmDriver> drivers) {
    this.settings = settings;
    this.drivers = drivers;
    this.cache = new ArtifactCache(settings.home().resolve("artifacts"));
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
    long stageStart = System.nanoTime();
    Path kernel;
    Path initrd;
    Path workDir;
    try {
      kernel = cache.stage(run.getKernel().getSha256(), run.getKernel().getUri());
      initrd = run.getInitrd().getSha256().isEmpty()
          ? GuestImage.ensure(settings.home())
          : cache.stage(run.getInitrd().getSha256(), run.getInitrd().getUri());
      workDir = Files.createDirectories(settings.runsDir().resolve(run.getRunId() + "-e" + block.getLeaseEpoch()));
    } catch (IOException | RuntimeException | dev.abfleet.worker.guest.GuestImageException e) {
      telemetry.setStageMs(millisSince(stageStart));
      var c = RunClassifier.classify(new BootFacts(String.valueOf(e.getMessage()), null, null, false, -1, false, false,
          List.of(), List.of()));
      return failure(block, run, telemetry, c.kind(), c.message(), "");
    }
    telemetry.setStageMs(millisSince(stageStart));

    BootRequest request = new BootRequest(
        run.getRunId(),
        guestArch(kernel),
        kernel,
        initrd,
        run.getCmdlineExtra(),
        harnessParams(run).kernelArgs(),
        Math.max(1, run.getShape().getVcpus()),
        run.getShape().getMemoryMib() == 0 ? 512 : run.getShape().getMemoryMib(),
        Duration.ofSeconds(run.getTimeoutS() == 0 ? ProtocolConstants.DEFAULT_BOOT_TIMEOUT_S_VALUE : run.getTimeoutS()),
        workDir,
        run.getShape().getPinVcpus());
    log.info("run {} ({}, pair {} order {}): booting", run.getRunId(), run.getArm(), block.getPairIndex(), run.getOrderInPair());
    BootOutcome outcome = driver.boot(request);
    ResultsHead results = ResultsHead.read(outcome.resultsLog());
    ParsedRun parsed = GuestProtocol.parse(results.bytes());
    telemetry.setAccelerator(nullToEmpty(outcome.accelerator()))
        .setRunMs(outcome.wall().toMillis())
        .setExitCode(outcome.exitCode())
        .addAllVcpuHostCpus(outcome.vcpuHostCpus());
    parsed.start().ifPresent(s -> {
      telemetry.setKernelRelease(s.kernelRelease());
      s.uptimeMs().ifPresent(telemetry::setBootMs);
    });

    List<String> missing = new ArrayList<>();
    Set<String> measured = parsed.measuredMetrics();
    for (String m : requestedMetrics(run)) {
      if (!measured.contains(m)) {
        missing.add(m);
      }
    }
    var classification = RunClassifier.classify(new BootFacts(
        null,
        outcome.launchError(),
        outcome.overCap() != null ? outcome.overCap() : results.overCap(),
        outcome.timedOut(),
        outcome.exitCode(),
        parsed.start().isPresent(),
        parsed.done(),
        missing,
        parsed.harnessErrors().stream().map(e -> e.metric() + ": " + e.message()).toList()));
    if (!classification.ok()) {
      log.warn("run {}: {} {}", run.getRunId(), classification.kind(), classification.message());
      return failure(block, run, telemetry, classification.kind(), classification.message(), nullToEmpty(outcome.consoleTail()));
    }
    RunResult.Builder result = RunResult.newBuilder()
        .setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId())
        .setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setTelemetry(telemetry);
    for (GuestSample s : parsed.samples()) {
      result.addSamples(MetricSample.newBuilder()
          .setMetric(s.metric())
          .setValue(s.value())
          .setUnit(s.unit())
          .setBetter(s.better().wire())
          .setIteration(s.iteration())
          .setWarmup(s.warmup()));
    }
    parsed.counters().forEach(c -> result.addGuestCounters(MetricTelemetry.newBuilder()
        .setMetric(c.metric()).setWork(c.work()).setWorkUnit(c.workUnit())
        .putAllInterrupts(c.interrupts()).setContextSwitches(c.contextSwitches())
        .setInterruptsTotal(c.interruptsTotal())));
    parsed.parseErrors().forEach(e -> result.addParseErrors("line " + e.lineNumber() + ": " + e.message()));
    result.setParseErrorsOmitted(parsed.parseErrorsOmitted());
    return WorkerMessage.newBuilder().setRunResult(result).build();
  }

  /** The harness parameters; each driver adds where its results channel is in the guest. */
  static HarnessParams harnessParams(RunAssignment run) {
    var b = run.getBenchmark();
    return new HarnessParams(b.getMetricsList(), b.getIterations(), b.getIterationMs(),
        b.getWarmupIterations(), "", "", b.getFiles(), "cold".equals(b.getCache()));
  }

  private static List<String> requestedMetrics(RunAssignment run) {
    if (run.getBenchmark().getMetricsCount() > 0) {
      return run.getBenchmark().getMetricsList();
    }
    return Harnesses.metrics(run.getBenchmark().getHarness()).stream().map(Harnesses.MetricDef::name).toList();
  }

  /** The guest architecture is the kernel's; an unrecognised image falls back to the host's. */
  private static String guestArch(Path kernel) {
    String arch = KernelImage.inspect(kernel).arch();
    return arch != null ? arch : HostFacts.normalizeArch(System.getProperty("os.arch"));
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
}
