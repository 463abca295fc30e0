package dev.abfleet.controller.experiment;

import dev.abfleet.stats.verdict.BootValues;

import dev.abfleet.stats.verdict.Assessment;
import dev.abfleet.stats.verdict.Assessor;
import dev.abfleet.report.BootRecord;
import dev.abfleet.stats.verdict.BootSample;
import dev.abfleet.report.Design;
import dev.abfleet.report.MetricCounters;
import dev.abfleet.report.RunFacts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * An experiment's spec and recorded boots as the report model sees them, so that its verdicts
 * come from the same {@link Assessor} as {@code abfleet analyze}'s.
 */
public final class ReportInputs {
  private ReportInputs() {}

  /** The verdicts of the completed pairs; {@link Assessment#EMPTY} while there are none. */
  public static Assessment assess(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs,
      long seed) {
    return pairs.isEmpty() ? Assessment.EMPTY
        : Assessor.assess(design(spec, seed).verdict(), completedPairs(spec, pairs));
  }

  /** Whether a sequential experiment may stop after these completed pairs. */
  public static boolean stopEarly(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs,
      long seed) {
    return lookMayBeDue(spec, pairs.size())
        && Assessor.stopEarly(design(spec, seed).verdict(), completedPairs(spec, pairs));
  }

  /**
   * Whether a look can be due with this many completed pairs: a sequential design past its first
   * look (every host class has at most {@code pairs} of them). Cheap, so callers skip assessing.
   */
  public static boolean lookMayBeDue(ExperimentSpec spec, int pairs) {
    List<Integer> looks = spec.policy().looks();
    return !looks.isEmpty() && pairs >= looks.get(0);
  }

  /**
   * What the experiment compares and how it decides.
   *
   * @param seed the experiment's recorded seed: the host bootstrap is seeded from it, so the same
   *     journal always yields the same intervals
   */
  public static Design design(ExperimentSpec spec, long seed) {
    ArmSpec ceiling = spec.ceiling();
    return new Design(spec.name(), spec.baseline().name(),
        spec.candidates().stream().map(ArmSpec::name).toList(),
        ceiling == null ? "" : ceiling.name(), spec.benchmark().metrics(),
        new LinkedHashSet<>(spec.policy().gatingMetrics()), spec.policy().statsPolicy(), seed,
        null, spec.benchmark().ratios());
  }

  /**
   * The boots of the completed pairs, each with its pair's host class ({@link HostClassKey}).
   * Within a pair, boots are ordered by their place in the pair.
   */
  public static List<BootRecord> completedPairs(ExperimentSpec spec,
      Map<Integer, List<RunOutcome>> pairs) {
    String[] classes = HostClassKey.ofPairs(pairs, spec.baseline().name());
    List<BootRecord> out = new ArrayList<>();
    int i = 0;
    for (List<RunOutcome> boots : pairs.values()) {
      String cls = classes[i++];
      boots.forEach(b -> out.add(record(b, cls)));
    }
    return out;
  }

  /** One boot, with the host class of its pair. */
  public static BootRecord record(RunOutcome o, String hostClass) {
    List<BootSample> samples = o.samples().stream()
        .map(s -> new BootSample(s.metric(), s.value(), s.unit(), s.better(), s.warmup()))
        .toList();
    return new BootRecord(o.runId(), o.arm(), o.hostId(), o.pairIndex(),
        BootRecord.fleetOrder(o.pairIndex(), o.orderInPair(), o.warmup()), status(o.status()),
        hostClass, o.accelerator(), o.warmup(), samples,
        new RunFacts(o.hypervisor(), o.kernelRelease(), o.leaseEpoch(), o.orderInPair(),
            o.bootMs(), o.runMs(), o.stageMs(), o.message(), o.consoleTail(),
            o.guest().volumeTransport(), o.guest().volumeOptions(), o.guest().vcpuHostCpus(),
            o.guest().counters().stream().map(c -> new MetricCounters(c.metric(), c.work(),
                c.workUnit(), c.interrupts(), c.contextSwitches(), c.interruptsTotal(), c.interruptsPerCpu(),
                c.softirqsPerCpu(), c.wakeupsPerCpu(), c.threadRates())).toList(),
            o.guest().guestArch(), o.guest().guestImageSha256(),
            o.guest().consoleFindings(), o.guest().consoleLines(), o.guest().volumeDaemon())
            .withTimes(o.startedAtMs(), o.endedAtMs()).withHost(o.guest().host())
            .withRerun(o.rerun()));
  }

  private static String status(RunOutcome.Status s) {
    return s == RunOutcome.Status.OK ? BootRecord.OK : s.wire();
  }

  /** Median of the boot's measured iterations of {@code metric}; NaN when it failed. */
  static double bootValue(RunOutcome boot, String metric) {
    return boot == null ? Double.NaN : BootValues.of(record(boot, null), metric);
  }
}
