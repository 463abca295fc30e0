package dev.abfleet.controller.grpc;

import dev.abfleet.controller.experiment.ExperimentCatalog;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.WorkloadSpec;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.experiment.HostClassKey;
import dev.abfleet.model.ArmBuild;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.fleet.HostPage;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.proto.fleet.v1.ListHostsResponse;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.proto.fleet.v1.HostPressure;
import dev.abfleet.report.BootHost;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.BootFailureComparison;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostFingerprint;
import dev.abfleet.proto.fleet.v1.HostNoise;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.stats.verdict.Assessment;
import dev.abfleet.stats.verdict.Row;
import java.util.List;

/** Domain -> proto, for everything that leaves the controller through gRPC. */
public final class DomainToProto {
  private DomainToProto() {}

  /**
   * @param queuePosition 0 = holds a host, does not wait or finished; N = N-th in line
   * @param etaSeconds 0 = unknown or finished
   */
  public static Experiment experiment(ExperimentView v, int queuePosition, long etaSeconds) {
    return experiment(v, queuePosition, etaSeconds, DomainToProto::boot);
  }

  /** The experiment, its boots converted by {@code boots} (which may hand out earlier conversions). */
  static Experiment experiment(ExperimentView v, int queuePosition, long etaSeconds,
      java.util.function.Function<RunOutcome, Boot> boots) {
    Experiment.Builder b = Experiment.newBuilder()
        .setExperimentId(v.id())
        .setSpec(spec(v.spec()))
        .setState(v.state())
        .setPairsDone(v.pairsDone())
        .setPairsWanted(v.pairsWanted())
        .setSeed(v.seed())
        .setMessage(v.message())
        .setRetriedBlocks(v.retriedBlocks())
        .setRejectedStale(v.rejectedStale())
        .setInterferedReruns(v.interferedReruns())
        .setQueuePosition(queuePosition)
        .setEtaSeconds(etaSeconds);
    Assessment a = v.assessment();
    a.rows().forEach(row -> b.addComparisons(comparison(row)));
    a.bootFailures().forEach((arm, f) -> b.addBootFailures(bootFailures(arm, f)));
    v.boots().forEach(o -> b.addBoots(boots.apply(o)));
    b.putAllClassPairs(a.classPairs());
    b.setOverall(a.overall());
    b.setGate(a.gate());
    return b.build();
  }

  static ExperimentSpec spec(dev.abfleet.controller.experiment.ExperimentSpec s) {
    ExperimentSpec.Builder b = ExperimentSpec.newBuilder()
        .setName(s.name())
        .setBenchmark(benchmark(s.benchmark()))
        .setSelector(HostSelector.newBuilder()
            .setHypervisor(s.selector().hypervisor())
            .setArch(s.selector().arch())
            .putAllLabels(s.selector().labels())
            .addAllHosts(s.selector().hosts())
            .addAllHypervisors(s.selector().hypervisors()))
        .setPolicy(Policy.newBuilder()
            .setNoiseThreshold(s.policy().noiseThreshold())
            .setAlpha(s.policy().alpha())
            .setPairs(s.policy().pairs())
            .setSeed(s.policy().seed())
            .setBootTimeoutS(s.policy().bootTimeoutS())
            .addAllGatingMetrics(s.policy().gatingMetrics())
            .addAllLooks(s.policy().looks())
            .addAllClassBy(s.policy().classBy())
            .setWarmupBoot(s.policy().warmupBoot())
            .setFutilityEffect(s.policy().futilityEffect())
            .setFutilityBeta(s.policy().futilityBeta()))
        .setPriority(s.priority())
        .addAllConsolePatterns(s.consolePatterns());
    // Always set: unset means the default policy, so an experiment without one says "off".
    b.getPolicyBuilder().setHostQuiet(hostQuiet(s.policy().hostQuiet()));
    s.arms().forEach(a -> b.addArms(arm(a)));
    return b.build();
  }

  private static Arm arm(ArmSpec a) {
    Arm.Builder b = Arm.newBuilder()
        .setName(a.name())
        .setRole(a.role() == null ? "" : a.role().name().toLowerCase(java.util.Locale.ROOT))
        .setBoot(BootSpecs.toProto(a.kernel(), a.initrd(), a.cmdlineExtra(), a.vcpus(), a.memoryMib(), a.guest()));
    if (a.build() != null) {
      b.setBuild(a.build().toProto());
    }
    return b.build();
  }


  private static Artifact artifact(ArtifactRef a) {
    return BootSpecs.artifact(a);
  }

  private static Benchmark benchmark(BenchmarkSpec b) {
    Benchmark.Builder out = Benchmark.newBuilder().setHarness(b.harness()).addAllMetrics(b.metrics())
        .setIterations(b.iterations()).setIterationMs(b.iterationMs())
        .setWarmupIterations(b.warmupIterations()).setVolume(b.volume()).setFiles(b.files())
        .setCache(b.cache()).setTransport(b.transport()).setThreads(b.load().threads())
        .setSeqSizeMib(b.load().seqSizeMib()).setFileSize(b.load().fileSize());
    b.ratios().forEach(r -> out.addRatios(dev.abfleet.proto.fleet.v1.CounterRatio.newBuilder()
        .setName(r.name()).setNum(r.num()).setDen(r.den())));
    WorkloadSpec w = b.workload();
    if (w != null) {
      out.setWorkload(Workload.newBuilder().setFiles(artifact(w.files())).setRun(w.run())
          .setOutput(w.output()).setTimeoutS(w.timeoutS()));
    }
    return out.build();
  }

  private static Comparison comparison(Row row) {
    dev.abfleet.stats.Comparison c = row.comparison();
    return Comparison.newBuilder()
        .setArm(row.arm()).setMetric(c.metric()).setUnit(c.unit()).setBetter(c.better().wire())
        .setNPairs(c.nPairs()).setNBaseline(c.nBaseline()).setNCandidate(c.nCandidate())
        .setBaselineCenter(c.baselineCenter()).setCandidateCenter(c.candidateCenter())
        .setChange(c.change()).setCiLow(c.ciLow()).setCiHigh(c.ciHigh()).setPValue(c.pValue())
        .setPAdjusted(c.pAdjusted()).setVerdict(c.verdict().wire())
        .addAllReasons(c.reasons()).addAllWarnings(c.warnings()).setGating(c.gating())
        .setHostClass(c.hostClass()).setOfCeiling(row.ofCeiling())
        .setAdjustment(c.adjustment().wire())
        .build();
  }

  private static BootFailureComparison bootFailures(String arm,
      dev.abfleet.stats.BootFailureComparison f) {
    return BootFailureComparison.newBuilder().setArm(arm)
        .setBaselineFailed(f.baselineFailed()).setBaselineBoots(f.baselineBoots())
        .setCandidateFailed(f.candidateFailed()).setCandidateBoots(f.candidateBoots())
        .setPValue(f.pValue()).setVerdict(f.verdict().wire())
        .setNote(f.note() == null ? "" : f.note()).build();
  }

  static dev.abfleet.proto.fleet.v1.HostQuiet hostQuiet(
      dev.abfleet.controller.plan.HostQuiet q) {
    return dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setCpuSomePct(q.cpuSomePct())
        .setMaxWaitS(q.maxWaitS()).setOnInterference(q.onInterference())
        .setMaxRerunsPerPair(q.maxRerunsPerPair()).build();
  }

  static Boot boot(RunOutcome o) {
    RunTelemetry.Builder t = RunTelemetry.newBuilder();
    if (o.guest().volumeDaemon() != null) {
      var d = o.guest().volumeDaemon();
      t.setVolumeDaemon(d.daemon()).setVolumeDaemonOptions(d.options()).setVolumeDaemonCpuMs(d.cpuMs())
          .setVolumeDaemonThreads(d.threads());
    }
    if (o.guest().host() != null) {
      host(t, o.guest().host());
    }
    Boot.Builder b = Boot.newBuilder()
        .setRunId(o.runId()).setArm(o.arm()).setHostId(o.hostId())
        .setPairIndex(o.pairIndex()).setOrderInPair(o.orderInPair())
        .setTelemetry(t
            .setHostId(o.hostId()).setHypervisor(o.hypervisor()).setAccelerator(o.accelerator())
            .setBootMs(o.bootMs()).setRunMs(o.runMs()).setStageMs(o.stageMs())
            .setKernelRelease(o.kernelRelease())
            .setStartedAtMs(o.startedAtMs()).setEndedAtMs(o.endedAtMs())
            .setVolumeTransport(o.guest().volumeTransport())
            .setVolumeOptions(o.guest().volumeOptions())
            .addAllVcpuHostCpus(o.guest().vcpuHostCpus())
            .setGuestArch(o.guest().guestArch())
            .setGuestImageSha256(o.guest().guestImageSha256())
            .setConsoleLogSha256(o.guest().consoleLogSha256())
            .setConsoleFindings(o.guest().consoleFindings())
            .addAllConsoleLines(o.guest().consoleLines()))
        .setConsoleLogSha256(o.guest().consoleLogSha256())
        .setStatus(o.status().wire())
        .setMessage(o.message())
        .setConsoleTail(o.consoleTail())
        .setHostClass(HostClassKey.of(o))
        .setLeaseEpoch(o.leaseEpoch())
        .setWarmup(o.warmup())
        .setRerun(o.rerun());
    o.samples().forEach(s -> b.addSamples(MetricSample.newBuilder()
        .setMetric(s.metric()).setValue(s.value()).setUnit(s.unit() == null ? "" : s.unit())
        .setBetter(s.better() == null ? "" : s.better()).setIteration(s.iteration())
        .setWarmup(s.warmup())));
    o.guest().counters().forEach(c -> b.addGuestCounters(telemetry(c)));
    return b.build();
  }

  private static void host(RunTelemetry.Builder t, BootHost h) {
    BootHost.Pressure p = h.pressure();
    BootHost.Facts f = h.facts();
    t.setHostPressure(HostPressure.newBuilder().setHasPsi(p.hasPsi())
            .setCpuSomeAvg10(p.cpuSomeAvg10()).setCpuSomeTotalUs(p.cpuSomeTotalUs())
            .setIoSomeAvg10(p.ioSomeAvg10()).setIoSomeTotalUs(p.ioSomeTotalUs())
            .setMemorySomeAvg10(p.memorySomeAvg10()).setMemorySomeTotalUs(p.memorySomeTotalUs())
            .setLoad1M(p.load1m()).setRunnableTasks(p.runnableTasks())
            .setHostBusyMs(p.hostBusyMs()).setWindowMs(p.windowMs())
            .setWorkerCpuMs(p.workerCpuMs()).setHostCpus(p.hostCpus()))
        .setHostFacts(BootHostFacts.newBuilder().setHypervisorVersion(f.hypervisorVersion())
            .setHostKernel(f.hostKernel()).setCpuModel(f.cpuModel()).setMicrocode(f.microcode())
            .setSmt(f.smt()).setCpufreqGovernor(f.cpufreqGovernor()).setBoost(f.boost()).setThp(f.thp())
            .setMemoryMib(f.memoryMib()).setWorkerCpus(f.workerCpus()))
        .setInterfered(h.interfered())
        .setQuietWaitMs(h.quietWaitMs());
  }

  private static MetricTelemetry telemetry(dev.abfleet.controller.experiment.GuestCounters c) {
    MetricTelemetry.Builder t = MetricTelemetry.newBuilder()
        .setMetric(c.metric()).setWork(c.work()).setWorkUnit(c.workUnit())
        .putAllInterrupts(c.interrupts()).setContextSwitches(c.contextSwitches())
        .setInterruptsTotal(c.interruptsTotal())
        .addAllWakeupsPerCpu(c.wakeupsPerCpu()).addAllThreadRates(c.threadRates());
    c.interruptsPerCpu().forEach((row, counts) ->
        t.putInterruptsPerCpu(row, MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    c.softirqsPerCpu().forEach((row, counts) ->
        t.putSoftirqsPerCpu(row, MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    return t.build();
  }

  static BlockAssignment assignment(Block block) {
    BlockAssignment.Builder b = BlockAssignment.newBuilder()
        .setExperimentId(block.experimentId()).setBlockId(block.blockId())
        .setPairIndex(block.pairIndex()).setLeaseEpoch(block.leaseEpoch());
    for (RunPlan r : block.runs()) {
      RunAssignment.Builder run = RunAssignment.newBuilder()
          .setRunId(r.runId()).setArm(r.arm()).setOrderInPair(r.orderInPair())
          .setBoot(BootSpecs.toProto(r.kernel(), r.initrd(), r.cmdlineExtra(), r.vcpus(), r.memoryMib(), r.guest()))
          .setBenchmark(benchmark(r.benchmark())).setTimeoutS(r.timeoutS())
          .setHypervisor(r.hypervisor()).setWarmup(r.warmup())
          .addAllConsolePatterns(r.consolePatterns());
      if (r.hostQuiet() != null) {
        run.setHostQuiet(hostQuiet(r.hostQuiet()));
      }
      b.addRuns(run);
    }
    return b.build();
  }

  /**
   * The host with how long ago its worker last spoke.
   *
   * @param heartbeatAgesMs host id -> ms since its worker's last message; absent = not known
   */
  /** A ListHosts answer: the page's hosts with their heartbeat ages, and the fleet's counts. */
  static ListHostsResponse hosts(HostPage.Listing listing, java.util.Map<String, Long> heartbeatAgesMs) {
    ListHostsResponse.Builder b = ListHostsResponse.newBuilder()
        .setNextPageToken(listing.next())
        .setTotalHosts(listing.counts().total())
        .setConnectedHosts(listing.counts().connected())
        .setLeasedHosts(listing.counts().leases());
    listing.counts().byState().forEach(b::putHostsByState);
    listing.hosts().forEach(v -> b.addHosts(host(v, heartbeatAgesMs)));
    return b.build();
  }

  public static Host host(HostView v, java.util.Map<String, Long> heartbeatAgesMs) {
    Long age = heartbeatAgesMs.get(v.capabilities().hostId());
    Host h = host(v);
    return age == null ? h : h.toBuilder().setHeartbeatAgeMs(age).build();
  }

  public static Host host(HostView v) {
    var c = v.capabilities();
    Host.Builder b = Host.newBuilder()
        .setHostId(c.hostId()).setState(v.state().wire()).setArch(c.arch()).setCpus(c.cpus())
        .setMemoryMib(c.memoryMib()).putAllLabels(c.labels())
        .setFingerprint(HostFingerprint.newBuilder().setCpuModel(c.cpuModel())
            .setHostKernel(c.hostKernel()))
        .setLeasedTo(v.leasedTo()).setLeaseEpoch(v.leaseEpoch())
        .setConnected(v.connected()).setStateReason(v.stateReason())
        .setInfraFailures(v.infraFailures()).setRejectedReports(v.rejectedReports())
        .setDrainReason(v.drainReason());
    if (v.noise().known()) {
      b.setNoise(HostNoise.newBuilder()
          .setMedianResidualPercent(v.noise().medianResidualPercent()).setPairs(v.noise().pairs()));
    }
    if (v.interference().boots() > 0) {
      b.setInterference(dev.abfleet.proto.fleet.v1.HostInterference.newBuilder()
          .setBoots(v.interference().boots()).setInterfered(v.interference().interfered())
          .setNoisyReason(v.noisyReason()));
    }
    new java.util.TreeMap<>(c.hypervisors()).forEach((name, accels) -> b.addHypervisors(
        HypervisorCapability.newBuilder().setName(name).addAllAccelerators(accels)
            .setVersion(c.hypervisorVersions().getOrDefault(name, ""))
            .addAllVolumeTransports(c.volumeTransports().getOrDefault(name, List.of()))
            .addAllGuestArches(c.guestArches().getOrDefault(name, List.of()))
            .setVcpuPinning(c.pins(name) ? "threads" : "none")));
    return b.build();
  }

  static ListExperimentsResponse experiments(ExperimentCatalog.Page page) {
    var b = ListExperimentsResponse.newBuilder().setNextPageToken(page.nextToken());
    page.experiments().forEach(e -> b.addExperiments(ExperimentSummary.newBuilder()
        .setExperimentId(e.id()).setName(e.name()).setState(e.state())
        .setPairsDone(e.pairsDone()).setPairsWanted(e.pairsWanted())
        .setCreatedAtMs(e.createdAtMs()).setPriority(e.priority()).setMessage(e.message())));
    return b.build();
  }
}
