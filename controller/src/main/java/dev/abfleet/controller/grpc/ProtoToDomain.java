package dev.abfleet.controller.grpc;

import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.experiment.ArtifactRef;
import dev.abfleet.controller.experiment.BenchmarkSpec;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.experiment.Sample;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
            b.getWarmupIterations()),
        new HostSelector(s.getHypervisor(), s.getArch(), s.getLabelsMap(), s.getHostsList(),
            s.getHypervisorsList()),
        new PolicySpec(pol.getNoiseThreshold(), pol.getAlpha(), pol.getPairs(), pol.getSeed(),
            pol.getBootTimeoutS(), pol.getGatingMetricsList(), pol.getLooksList(),
            pol.getClassByList(), pol.getWarmupBoot()),
        p.getPriority());
  }

  private static ArmSpec arm(Arm a) {
    ArmSpec.Role role = switch (a.getRole()) {
      case "baseline" -> ArmSpec.Role.BASELINE;
      case "candidate" -> ArmSpec.Role.CANDIDATE;
      case "ceiling" -> ArmSpec.Role.CEILING;
      default -> null;
    };
    ArtifactRef initrd = a.hasInitrd() && !a.getInitrd().getSha256().isEmpty()
        ? artifact(a.getInitrd()) : null;
    return new ArmSpec(a.getName(), role, artifact(a.getKernel()), initrd, a.getCmdlineExtra(),
        a.getShape().getVcpus(), a.getShape().getMemoryMib());
  }

  private static ArtifactRef artifact(Artifact a) {
    return new ArtifactRef(a.getSha256(), a.getUri(), a.getSizeBytes());
  }

  static HostCapabilities capabilities(Hello h) {
    Map<String, List<String>> hypervisors = new LinkedHashMap<>();
    Map<String, String> versions = new LinkedHashMap<>();
    for (HypervisorCapability c : h.getHypervisorsList()) {
      hypervisors.put(c.getName(), List.copyOf(c.getAcceleratorsList()));
      if (!c.getVersion().isEmpty()) {
        versions.put(c.getName(), c.getVersion());
      }
    }
    return new HostCapabilities(h.getHostId(), h.getArch(), h.getCpus(), h.getMemoryMib(),
        h.getLabelsMap(), hypervisors, h.getFingerprint().getCpuModel(),
        h.getFingerprint().getHostKernel(), h.getAgentVersion(), versions);
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
        message, "");
  }

  static RunOutcome outcome(RunFailure f, String hostId) {
    RunOutcome.Status status = switch (f.getKind()) {
      case BOOT -> RunOutcome.Status.BOOT_FAILED;
      case TIMEOUT -> RunOutcome.Status.TIMEOUT;
      case HARNESS -> RunOutcome.Status.HARNESS_FAILED;
      // Unclassified failures are not held against the arm.
      default -> RunOutcome.Status.INFRA;
    };
    return outcome(f.getRunId(), hostId, f.getLeaseEpoch(), status, f.getTelemetry(), List.of(),
        f.getMessage(), f.getConsoleTail());
  }

  private static RunOutcome outcome(String runId, String hostId, long epoch, RunOutcome.Status status,
      RunTelemetry t, List<Sample> samples, String message, String consoleTail) {
    return new RunOutcome(runId, "", hostId, 0, 0, epoch, status, t.getAccelerator(),
        t.getHypervisor(), t.getBootMs(), t.getRunMs(), t.getStageMs(), t.getKernelRelease(),
        samples, message, consoleTail, t.getStartedAtMs(), t.getEndedAtMs(), false);
  }

  private static Sample sample(MetricSample s) {
    return new Sample(s.getMetric(), s.getValue(), s.getUnit(), s.getBetter(), s.getIteration(),
        s.getWarmup());
  }
}
