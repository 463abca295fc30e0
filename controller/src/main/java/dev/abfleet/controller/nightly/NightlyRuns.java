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

  /** The record of a run whose experiment ended. */
  static RunRecord record(NightlyEvent.RunStarted started, Experiment e) {
    List<RunRecord.Metric> metrics = e.getComparisonsList().stream()
        .filter(c -> c.getArm().equals(CANDIDATE_ARM))
        .map(NightlyRuns::metric)
        .toList();
    boolean completed = e.getState().equals("completed");
    boolean regressed = e.getOverall().equals("regressed");
    return new RunRecord(started.schedule(), started.due(), started.experimentId(), e.getState(),
        started.baseline(), started.candidate(), metrics, e.getOverall(), completed && !regressed,
        e.getMessage(), started.simulation());
  }

  private static RunRecord.Metric metric(Comparison c) {
    return new RunRecord.Metric(c.getMetric(), c.getUnit(), c.getBetter(), c.getGating(),
        c.getBaselineCenter(), c.getCandidateCenter(), c.getChange(), c.getCiLow(), c.getCiHigh(), c.getVerdict());
  }
}
