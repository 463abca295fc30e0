package dev.abfleet.controller.report;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.model.ArmBuild;
import dev.abfleet.stats.verdict.Assessment;
import dev.abfleet.report.BootHost;
import dev.abfleet.report.BootRecord;
import dev.abfleet.stats.verdict.BootSample;
import dev.abfleet.model.CounterRatio;
import dev.abfleet.report.DaemonUsage;
import dev.abfleet.report.Design;
import dev.abfleet.report.MetricCounters;
import dev.abfleet.report.Report;
import dev.abfleet.stats.verdict.Row;
import dev.abfleet.report.Run;
import dev.abfleet.report.RunFacts;
import dev.abfleet.stats.Adjustment;
import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.Verdict;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An experiment as the controller sent it, turned into the report model that every renderer
 * takes: the verdicts are the controller's, never recomputed here.
 */
public final class ProtoReports {
  private ProtoReports() {}

  public static Report of(Experiment e) {
    return new Report(design(e), assessment(e), run(e));
  }

  static Design design(Experiment e) {
    var spec = e.getSpec();
    var p = spec.getPolicy();
    return new Design(e.getExperimentId(), arms(e, "baseline").stream().findFirst().orElse("?"),
        arms(e, "candidate"), arms(e, "ceiling").stream().findFirst().orElse(""),
        spec.getBenchmark().getMetricsList(), new LinkedHashSet<>(p.getGatingMetricsList()),
        new Policy(p.getNoiseThreshold(), p.getAlpha(), p.getLooksList())
            .withFutility(p.getFutilityEffect(), p.getFutilityBeta()), e.getSeed(), null,
        spec.getBenchmark().getRatiosList().stream()
            .map(r -> new CounterRatio(r.getName(), r.getNum(), r.getDen())).toList());
  }

  private static List<String> arms(Experiment e, String role) {
    return e.getSpec().getArmsList().stream().filter(a -> a.getRole().equals(role))
        .map(Arm::getName).toList();
  }

  static Assessment assessment(Experiment e) {
    List<Row> rows = e.getComparisonsList().stream()
        .map(c -> new Row(c.getArm(), comparison(c), c.getOfCeiling())).toList();
    Map<String, BootFailureComparison> failures = new LinkedHashMap<>();
    e.getBootFailuresList().forEach(f -> failures.put(f.getArm(), new BootFailureComparison(
        f.getBaselineFailed(), f.getBaselineBoots(), f.getCandidateFailed(),
        f.getCandidateBoots(), f.getPValue(), verdict(f.getVerdict()), f.getNote())));
    return new Assessment(true, e.getPairsDone(), rows, failures, e.getClassPairsMap(),
        e.getOverall());
  }

  private static Comparison comparison(dev.abfleet.proto.fleet.v1.Comparison c) {
    int nBaseline = c.getNBaseline() > 0 ? c.getNBaseline() : c.getNPairs();
    int nCandidate = c.getNCandidate() > 0 ? c.getNCandidate() : c.getNPairs();
    return new Comparison(c.getMetric(), c.getUnit(), direction(c.getBetter()), c.getGating(),
        true, nBaseline, nCandidate, c.getNPairs(), c.getBaselineCenter(),
        c.getCandidateCenter(), c.getChange(), c.getCiLow(), c.getCiHigh(), c.getPValue(),
        c.getPAdjusted(), verdict(c.getVerdict()), c.getReasonsList(), c.getWarningsList(),
        c.getHostClass(), c.getAdjustment().isEmpty() ? null : Adjustment.ofWire(c.getAdjustment()));
  }

  private static Direction direction(String better) {
    return "lower".equals(better) ? Direction.LOWER : Direction.HIGHER;
  }

  private static Verdict verdict(String wire) {
    for (Verdict v : Verdict.values()) {
      if (v.wire().equals(wire)) {
        return v;
      }
    }
    return Verdict.INCONCLUSIVE;
  }

  /**
   * Whether the experiment runs on sim hosts (its selector asks for them, or a boot ran on one):
   * every figure then comes from the sim model.
   */
  public static boolean simulation(Experiment e) {
    var selector = e.getSpec().getSelector();
    return selector.getHypervisor().equals("sim")
        || selector.getHypervisorsList().contains("sim")
        || e.getBootsList().stream().anyMatch(b -> b.getTelemetry().getHypervisor().equals("sim"));
  }

  static Run run(Experiment e) {
    boolean simulation = simulation(e);
    return new Run(e.getState(), e.getSeed(), e.getPairsDone(), e.getPairsWanted(),
        e.getRetriedBlocks(), e.getRejectedStale(), e.getMessage(), simulation,
        e.getBootsList().stream().map(ProtoReports::boot).toList(), builds(e))
        .withBootTimeout(BootTimeoutFacts.of(e))
        .withInterference(e.getInterferedReruns(), onInterference(e));
  }

  /** "rerun" or "keep"; "off" when the experiment has no quiet-host policy. */
  private static String onInterference(Experiment e) {
    if (!e.getSpec().getPolicy().hasHostQuiet()) {
      return "off";
    }
    String wire = e.getSpec().getPolicy().getHostQuiet().getOnInterference();
    return wire.isEmpty() ? "rerun" : wire;
  }

  /** The arms abfleet built, by name, in spec order. */
  private static Map<String, ArmBuild> builds(Experiment e) {
    Map<String, ArmBuild> out = new LinkedHashMap<>();
    for (Arm a : e.getSpec().getArmsList()) {
      if (a.hasBuild()) {
        out.put(a.getName(), ArmBuild.fromProto(a.getBuild()));
      }
    }
    return out;
  }

  private static BootRecord boot(Boot b) {
    var t = b.getTelemetry();
    List<BootSample> samples = b.getSamplesList().stream().map(ProtoReports::sample).toList();
    return new BootRecord(b.getRunId(), b.getArm(), b.getHostId(), b.getPairIndex(),
        BootRecord.fleetOrder(b.getPairIndex(), b.getOrderInPair(), b.getWarmup()),
        b.getStatus().toLowerCase(Locale.ROOT), b.getHostClass(), t.getAccelerator(),
        b.getWarmup(), samples, new RunFacts(t.getHypervisor(), t.getKernelRelease(),
            b.getLeaseEpoch(), b.getOrderInPair(), t.getBootMs(), t.getRunMs(), t.getStageMs(),
            b.getMessage(), b.getConsoleTail(), t.getVolumeTransport(), t.getVolumeOptions(),
            t.getVcpuHostCpusList(), b.getGuestCountersList().stream().map(c -> new MetricCounters(
                c.getMetric(), c.getWork(), c.getWorkUnit(), c.getInterruptsMap(),
                c.getContextSwitches(), c.getInterruptsTotal(),
                perCpu(c.getInterruptsPerCpuMap()),
                perCpu(c.getSoftirqsPerCpuMap()),
                c.getWakeupsPerCpuList(), c.getThreadRatesList())).toList(),
            t.getGuestArch(), t.getGuestImageSha256(), t.getConsoleFindings(), t.getConsoleLinesList(),
            DaemonUsage.of(t.getVolumeDaemon(),
                t.getVolumeDaemonOptions(), t.getVolumeDaemonCpuMs(), t.getVolumeDaemonThreads()))
            .withTimes(t.getStartedAtMs(), t.getEndedAtMs()).withHost(host(t))
            .withRerun(b.getRerun()));
  }

  /** The host's pressure and facts a boot's telemetry carries; null when the worker sampled none. */
  public static BootHost host(RunTelemetry t) {
    if (!t.hasHostPressure() && !t.hasHostFacts()) {
      return null;
    }
    var p = t.getHostPressure();
    var f = t.getHostFacts();
    return new BootHost(
        t.hasHostPressure() ? new BootHost.Pressure(p.getHasPsi(), p.getCpuSomeAvg10(), p.getCpuSomeTotalUs(),
            p.getIoSomeAvg10(), p.getIoSomeTotalUs(), p.getMemorySomeAvg10(), p.getMemorySomeTotalUs(),
            p.getLoad1M(), p.getRunnableTasks(), p.getHostBusyMs(), p.getWindowMs(), p.getWorkerCpuMs(),
            p.getHostCpus()) : null,
        new BootHost.Facts(f.getHypervisorVersion(), f.getHostKernel(), f.getCpuModel(), f.getMicrocode(),
            f.getSmt(), f.getCpufreqGovernor(), f.getBoost(), f.getThp(), f.getMemoryMib(), f.getWorkerCpus()),
        t.getInterfered(), t.getQuietWaitMs());
  }


  private static BootSample sample(MetricSample s) {
    return new BootSample(s.getMetric(), s.getValue(), s.getUnit(), s.getBetter(), s.getWarmup());
  }

  /** Per-CPU rows off the wire: row name -> count per CPU. */
  public static java.util.Map<String, List<Long>> perCpu(
      java.util.Map<String, dev.abfleet.proto.fleet.v1.MetricTelemetry.PerCpu> rows) {
    java.util.Map<String, List<Long>> out = new java.util.TreeMap<>();
    rows.forEach((name, row) -> out.put(name, row.getCountsList()));
    return out;
  }
}
