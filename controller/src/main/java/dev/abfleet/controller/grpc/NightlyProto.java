package dev.abfleet.controller.grpc;

import dev.abfleet.controller.nightly.Nightly;
import dev.abfleet.controller.nightly.RunRecord;
import dev.abfleet.controller.nightly.Series;
import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.proto.fleet.v1.NightlyKernel;
import dev.abfleet.proto.fleet.v1.NightlyMetric;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import dev.abfleet.proto.fleet.v1.SeriesChangePoint;
import dev.abfleet.stats.changepoint.ChangePoint;

/** Nightly records to and from the wire. */
final class NightlyProto {
  private NightlyProto() {}

  static ScheduleInfo schedule(Nightly.ScheduleView v) {
    ScheduleInfo.Builder b = ScheduleInfo.newBuilder().setName(v.name()).setCron(v.cron()).setZone(v.zone())
        .setNextFire(v.nextFire()).setSimulation(v.simulation()).addAllRunning(v.running());
    if (v.lastRun() != null) {
      b.setLastRun(run(v.lastRun()));
    }
    return b.build();
  }

  static NightlyRun run(RunRecord r) {
    NightlyRun.Builder b = NightlyRun.newBuilder().setSchedule(r.schedule()).setDate(r.date())
        .setExperimentId(r.experiment()).setState(r.state()).setOverall(r.overall()).setAccepted(r.accepted())
        .setMessage(r.message()).setSimulation(r.simulation()).setDecision(r.decision())
        .setDecidedBy(r.decidedBy()).setDecisionReason(r.decisionReason()).setDecidedAtMs(r.decidedAtMs());
    if (r.baseline() != null) {
      b.setBaseline(kernel(r.baseline()));
    }
    if (r.candidate() != null) {
      b.setCandidate(kernel(r.candidate()));
    }
    r.metrics().forEach(m -> b.addMetrics(NightlyMetric.newBuilder().setMetric(m.metric()).setUnit(m.unit())
        .setBetter(m.better()).setGating(m.gating()).setBaselineCenter(m.baselineCenter())
        .setCandidateCenter(m.candidateCenter()).setChange(m.change()).setCiLow(m.ciLow()).setCiHigh(m.ciHigh())
        .setVerdict(m.verdict())));
    return b.build();
  }

  private static NightlyKernel kernel(RunRecord.Artifact a) {
    return NightlyKernel.newBuilder().setPath(a.path()).setSha256(a.sha256()).build();
  }

  /**
   * A run from an old history file.
   *
   * @throws IllegalArgumentException a field the controller cannot keep, named
   */
  static RunRecord record(NightlyRun r) {
    if (r.getSchedule().isEmpty() || r.getExperimentId().isEmpty() || r.getDate().isEmpty()) {
      throw new IllegalArgumentException("run " + (r.getExperimentId().isEmpty() ? "(no experiment_id)"
          : r.getExperimentId()) + ": schedule, date and experiment_id are required");
    }
    try {
      java.time.Instant.parse(r.getDate());
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("run " + r.getExperimentId() + ": date '" + r.getDate()
          + "' is not an ISO-8601 instant, e.g. 2026-03-10T02:30:00Z");
    }
    return new RunRecord(r.getSchedule(), r.getDate(), r.getExperimentId(), r.getState(),
        r.hasBaseline() ? artifact(r.getBaseline()) : null, r.hasCandidate() ? artifact(r.getCandidate()) : null,
        r.getMetricsList().stream().map(m -> new RunRecord.Metric(m.getMetric(), m.getUnit(), m.getBetter(),
            m.getGating(), m.getBaselineCenter(), m.getCandidateCenter(), m.getChange(), m.getCiLow(),
            m.getCiHigh(), m.getVerdict())).toList(),
        r.getOverall(), r.getAccepted(), r.getMessage(), r.getSimulation(), decision(r), r.getDecidedBy(),
        r.getDecisionReason(), r.getDecidedAtMs());
  }

  /** An imported run's decision: as written, or (files without one) read from accepted. */
  private static String decision(NightlyRun r) {
    String d = r.getDecision();
    if (!d.isEmpty() && !d.equals(RunRecord.ACCEPTED) && !d.equals(RunRecord.HELD) && !d.equals(RunRecord.REJECTED)) {
      throw new IllegalArgumentException("run " + r.getExperimentId() + ": decision '" + d
          + "'; expected accepted, held or rejected (or none: read from accepted)");
    }
    if (!d.isEmpty() && r.getAccepted() != d.equals(RunRecord.ACCEPTED)) {
      throw new IllegalArgumentException("run " + r.getExperimentId() + ": decision " + d + " with accepted "
          + r.getAccepted() + "; accepted is true exactly for decision accepted");
    }
    return d;
  }

  private static RunRecord.Artifact artifact(NightlyKernel k) {
    return new RunRecord.Artifact(k.getPath(), k.getSha256());
  }

  static GetSeriesResponse series(Series s) {
    GetSeriesResponse.Builder b = GetSeriesResponse.newBuilder().setSchedule(s.schedule()).setMetric(s.metric())
        .setSeries(s.series()).setUnit(s.unit()).setBetter(s.better())
        .addAllWarnings(s.detection().warnings()).setMinChange(s.minChange());
    s.runs().forEach(r -> b.addRuns(run(r)));
    for (double v : s.values()) {
      b.addValues(v);
    }
    for (ChangePoint cp : s.detection().points()) {
      b.addChangePoints(SeriesChangePoint.newBuilder().setIndex(cp.index()).setBefore(cp.beforeMedian())
          .setAfter(cp.afterMedian()).setShift(cp.shift()).setRelative(cp.relative())
          .setStatistic(cp.statistic()).setPValue(cp.pValue()));
    }
    return b.build();
  }
}
