package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The pure parts of a run: its experiment id, its spec, and its record once the experiment ended. */
final class NightlyRuns {
  static final String BASELINE_ARM = "baseline";
  static final String CANDIDATE_ARM = "candidate";
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'").withZone(ZoneOffset.UTC);

  private NightlyRuns() {}

  /** The experiment id of the run due at {@code due}: the same after a restart. */
  static String experimentId(String schedule, Instant due) {
    return schedule + "-" + ID_TIME.format(due);
  }

  /** The schedule's template with tonight's kernels in the baseline and candidate arms. */
  static ExperimentSpec spec(NightlySchedule s, RunRecord.Artifact baseline, RunRecord.Artifact candidate,
      long baselineBytes, long candidateBytes) {
    ExperimentSpec.Builder b = s.template().toBuilder();
    for (Arm.Builder arm : b.getArmsBuilderList()) {
      boolean isCandidate = arm.getName().equals(CANDIDATE_ARM);
      RunRecord.Artifact a = isCandidate ? candidate : baseline;
      arm.getBootBuilder().setKernel(Artifact.newBuilder().setSha256(a.sha256()).setUri(a.path())
          .setSizeBytes(isCandidate ? candidateBytes : baselineBytes));
    }
    return b.setPriority("nightly").build();
  }

  /**
   * The record of a run whose experiment ended, decided by the gate at {@code nowMs}: accepted
   * when it passed, rejected when it failed or the experiment did not complete, held otherwise.
   */
  static RunRecord record(NightlyEvent.RunStarted started, Experiment e, long nowMs) {
    List<RunRecord.Metric> metrics = e.getComparisonsList().stream()
        .filter(c -> c.getArm().equals(CANDIDATE_ARM))
        .map(NightlyRuns::metric)
        .toList();
    RunRecord run = new RunRecord(started.schedule(), started.due(), started.experimentId(), e.getState(),
        started.baseline(), started.candidate(), metrics, e.getOverall(), false, e.getMessage(),
        started.simulation());
    if (!run.state().equals("completed")) {
      return notCompleted(run, nowMs);
    }
    String gate = gate(e);
    return switch (gate) {
      case "pass" -> run.decided(RunRecord.ACCEPTED, RunRecord.BY_GATE, "gate passed: overall " + e.getOverall(),
          nowMs);
      case "fail" -> run.decided(RunRecord.REJECTED, RunRecord.BY_GATE, "gate failed: " + undecided(metrics),
          nowMs);
      default -> run.decided(RunRecord.HELD, RunRecord.BY_GATE, "gate inconclusive"
          + (undecided(metrics).isEmpty() ? "" : ": " + undecided(metrics))
          + "; the baseline stays until abfleet nightly accept or reject " + run.experiment(), nowMs);
    };
  }

  /** A run that did not complete is rejected: there is no evidence for its candidate. */
  static RunRecord notCompleted(RunRecord run, long nowMs) {
    return run.decided(RunRecord.REJECTED, RunRecord.BY_GATE, "not completed (" + run.state() + ")"
        + (run.message().isEmpty() ? "" : ": " + run.message()), nowMs);
  }

  /**
   * The experiment's gate: "pass" (every gating metric improved, no_change or holds), "fail" (a
   * gating metric regressed or a candidate fails to boot more often), "inconclusive", or "" while
   * nothing is decided: the one place nightly reads it.
   */
  static String gate(Experiment e) {
    return e.getGate();
  }

  /** The gating metrics that kept the gate from passing, e.g. "metadata_stat -10.3% [-31.5%, +4.1%] inconclusive". */
  private static String undecided(List<RunRecord.Metric> metrics) {
    return String.join(", ", metrics.stream().filter(RunRecord.Metric::gating)
        .filter(m -> !List.of("improved", "no_change", "holds").contains(m.verdict()))
        .map(m -> m.metric() + " " + percent(m.change()) + " [" + percent(m.ciLow()) + ", " + percent(m.ciHigh())
            + "] " + m.verdict())
        .toList());
  }

  private static String percent(double r) {
    return Double.isFinite(r) ? String.format(java.util.Locale.ROOT, "%+.1f%%", 100 * r) : "n/a";
  }

  private static RunRecord.Metric metric(Comparison c) {
    return new RunRecord.Metric(c.getMetric(), c.getUnit(), c.getBetter(), c.getGating(),
        c.getBaselineCenter(), c.getCandidateCenter(), c.getChange(), c.getCiLow(), c.getCiHigh(), c.getVerdict());
  }
}
