package dev.abfleet.controller.grpc;

import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.controller.experiment.GuestCounters;
import dev.abfleet.controller.experiment.GuestFacts;
import dev.abfleet.model.ArmBuild;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.experiment.Sample;
import dev.abfleet.controller.plan.WorkloadSpec;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.report.DaemonUsage;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.controller.plan.HostQuiet;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.model.CounterRatio;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Proto -> domain, for everything that enters the controller through gRPC. */
final class ProtoToDomain {
  private ProtoToDomain() {}

  static ExperimentSpec spec(dev.abfleet.proto.fleet.v1.ExperimentSpec p) {
    List<ArmSpec> arms = p.getArmsList().stream().map(ProtoToDomain::arm).toList();
    Benchmark b = p.getBenchmark();
    var s = p.getSelector();
    Policy pol = p.getPolicy();
    return new ExperimentSpec(
        p.getName(),
        arms,
        new BenchmarkSpec(b.getHarness(), b.getMetricsList(), b.getIterations(), b.getIterationMs(),
            b.getWarmupIterations(), b.getVolume(), b.getFiles(), b.getCache(),
            b.hasWorkload() ? workload(b.getWorkload()) : null, b.getTransport(),
            b.getRatiosList().stream().map(r -> new CounterRatio(r.getName(), r.getNum(),
                r.getDen())).toList(),
            new BenchmarkSpec.Load(b.getThreads(), b.getSeqSizeMib(), b.getFileSize())),
        new HostSelector(s.getHypervisor(), s.getArch(), s.getLabelsMap(), s.getHostsList(),
            s.getHypervisorsList()),
        new PolicySpec(pol.getNoiseThreshold(), pol.getAlpha(), pol.getPairs(), pol.getSeed(),
            pol.getBootTimeoutS(), pol.getGatingMetricsList(), pol.getLooksList(),
            pol.getClassByList(), pol.getWarmupBoot(), pol.getFutilityEffect(),
            pol.getFutilityBeta(), hostQuiet(pol)),
        p.getPriority()).withConsolePatterns(p.getConsolePatternsList());
  }

  /**
   * Unset = the default policy ({@link HostQuiet#DEFAULTS}: wait for a quiet host, re-run
   * interfered pairs); on_interference "off" = none; the values as sent otherwise (the validator
   * judges them).
   */
  private static HostQuiet hostQuiet(Policy pol) {
    if (!pol.hasHostQuiet()) {
      return HostQuiet.DEFAULTS;
    }
    var q = pol.getHostQuiet();
    return new HostQuiet(q.getCpuSomePct(), q.getMaxWaitS(), q.getOnInterference(),
        q.getMaxRerunsPerPair());
  }

  private static ArmSpec arm(Arm a) {
    ArmSpec.Role role = switch (a.getRole()) {
      case "baseline" -> ArmSpec.Role.BASELINE;
      case "candidate" -> ArmSpec.Role.CANDIDATE;
      case "ceiling" -> ArmSpec.Role.CEILING;
      default -> null;
    };
    BootSpec boot = BootSpecs.of(a);
    return new ArmSpec(a.getName(), role, BootSpecs.kernel(boot), BootSpecs.initrd(boot), boot.getCmdlineExtra(),
        boot.getShape().getVcpus(), boot.getShape().getMemoryMib(), BootSpecs.guest(boot),
        a.hasBuild() ? ArmBuild.fromProto(a.getBuild()) : null);
  }

  private static WorkloadSpec workload(Workload w) {
    return new WorkloadSpec(artifact(w.getFiles()), w.getRun(), w.getOutput(), w.getTimeoutS());
  }

  private static ArtifactRef artifact(Artifact a) {
    return BootSpecs.artifact(a);
  }

  static HostCapabilities capabilities(Hello h) {
    Map<String, List<String>> hypervisors = new LinkedHashMap<>();
    Map<String, String> versions = new LinkedHashMap<>();
    Map<String, List<String>> transports = new LinkedHashMap<>();
    Map<String, List<String>> guestArches = new LinkedHashMap<>();
    Set<String> unpinnable = new TreeSet<>();
    for (HypervisorCapability c : h.getHypervisorsList()) {
      hypervisors.put(c.getName(), List.copyOf(c.getAcceleratorsList()));
      if (c.getVcpuPinning().equals("none")) {
        unpinnable.add(c.getName());
      }
      if (c.getGuestArchesCount() > 0) {
        guestArches.put(c.getName(), List.copyOf(c.getGuestArchesList()));
      }
      if (c.getVolumeTransportsCount() > 0) {
        transports.put(c.getName(), List.copyOf(c.getVolumeTransportsList()));
      }
      if (!c.getVersion().isEmpty()) {
        versions.put(c.getName(), c.getVersion());
      }
    }
    return new HostCapabilities(h.getHostId(), h.getArch(), h.getCpus(), h.getMemoryMib(),
        h.getLabelsMap(), hypervisors, h.getFingerprint().getCpuModel(),
        h.getFingerprint().getHostKernel(), h.getAgentVersion(), versions, transports, guestArches, unpinnable);
  }

  /** A boot that reported samples; no samples at all counts as a harness failure. */
  static RunOutcome outcome(RunResult r, String hostId) {
    List<Sample> samples = r.getSamplesList().stream().map(ProtoToDomain::sample).toList();
    RunOutcome.Status status = samples.isEmpty() ? RunOutcome.Status.HARNESS_FAILED : RunOutcome.Status.OK;
    String message = samples.isEmpty() ? "the harness reported no samples" : "";
    if (r.getParseErrorsCount() > 0) {
      message = (message.isEmpty() ? "" : message + "; ") + (r.getParseErrorsCount() + r.getParseErrorsOmitted())
          + " result lines did not parse, first: " + r.getParseErrors(0);
    }
    return outcome(r.getRunId(), hostId, r.getLeaseEpoch(), status, r.getTelemetry(), samples,
        message, "").withGuest(guest(r.getTelemetry(), r.getGuestCountersList()));
  }

  static RunOutcome outcome(RunFailure f, String hostId) {
    RunOutcome.Status status = switch (f.getKind()) {
      case BOOT -> RunOutcome.Status.BOOT_FAILED;
      case TIMEOUT -> RunOutcome.Status.TIMEOUT;
      case HARNESS -> RunOutcome.Status.HARNESS_FAILED;
      case CONFIG -> RunOutcome.Status.CONFIG;
      // Unclassified failures are not held against the arm.
      default -> RunOutcome.Status.INFRA;
    };
    return outcome(f.getRunId(), hostId, f.getLeaseEpoch(), status, f.getTelemetry(), List.of(),
        f.getMessage(), f.getConsoleTail()).withGuest(guest(f.getTelemetry(), List.of()));
  }

  private static RunOutcome outcome(String runId, String hostId, long epoch, RunOutcome.Status status,
      RunTelemetry t, List<Sample> samples, String message, String consoleTail) {
    return new RunOutcome(runId, "", hostId, 0, 0, epoch, status, t.getAccelerator(),
        t.getHypervisor(), t.getBootMs(), t.getRunMs(), t.getStageMs(), t.getKernelRelease(),
        samples, message, consoleTail, t.getStartedAtMs(), t.getEndedAtMs(), false);
  }

  private static GuestFacts guest(RunTelemetry t, List<MetricTelemetry> counters) {
    return new GuestFacts(t.getVolumeTransport(), t.getVolumeOptions(), t.getVcpuHostCpusList(),
        counters.stream().map(c -> new GuestCounters(c.getMetric(), c.getWork(), c.getWorkUnit(),
            c.getInterruptsMap(), c.getContextSwitches(), c.getInterruptsTotal(), ProtoReports.perCpu(c.getInterruptsPerCpuMap()),
            ProtoReports.perCpu(c.getSoftirqsPerCpuMap()), c.getWakeupsPerCpuList(), c.getThreadRatesList())).toList(),
        t.getGuestArch(), t.getGuestImageSha256(), t.getConsoleLogSha256(),
        t.getConsoleFindings(), t.getConsoleLinesList(), DaemonUsage.of(t.getVolumeDaemon(),
            t.getVolumeDaemonOptions(), t.getVolumeDaemonCpuMs(), t.getVolumeDaemonThreads()))
        .withHost(ProtoReports.host(t));
  }


  private static Sample sample(MetricSample s) {
    return new Sample(s.getMetric(), s.getValue(), s.getUnit(), s.getBetter(), s.getIteration(),
        s.getWarmup());
  }
}
