package dev.abfleet.cli.history;

import dev.abfleet.proto.fleet.v1.NightlyKernel;
import dev.abfleet.proto.fleet.v1.NightlyMetric;
import dev.abfleet.proto.fleet.v1.NightlyRun;

/** History entries (the old file's lines) to and from the controller's run records. */
final class HistoryRuns {
  private HistoryRuns() {}

  static NightlyRun toProto(HistoryEntry e) {
    NightlyRun.Builder b = NightlyRun.newBuilder().setSchedule(nonNull(e.schedule())).setDate(nonNull(e.date()))
        .setExperimentId(nonNull(e.experiment())).setState(nonNull(e.state())).setOverall(nonNull(e.overall()))
        .setAccepted(e.accepted()).setMessage(nonNull(e.message())).setSimulation(e.simulation())
        .setDecision(e.decision()).setDecidedBy(e.decidedBy()).setDecisionReason(e.decisionReason());
    if (e.baseline() != null) {
      b.setBaseline(kernel(e.baseline()));
    }
    if (e.candidate() != null) {
      b.setCandidate(kernel(e.candidate()));
    }
    e.metrics().forEach(m -> b.addMetrics(NightlyMetric.newBuilder().setMetric(nonNull(m.metric()))
        .setUnit(nonNull(m.unit())).setBetter(nonNull(m.better())).setGating(m.gating())
        .setBaselineCenter(m.baselineCenter()).setCandidateCenter(m.candidateCenter()).setChange(m.change())
        .setCiLow(m.ciLow()).setCiHigh(m.ciHigh()).setVerdict(nonNull(m.verdict()))));
    return b.build();
  }

  static HistoryEntry fromProto(NightlyRun r) {
    return new HistoryEntry(HistoryEntry.VERSION, r.getSchedule(), r.getDate(), r.getExperimentId(), r.getState(),
        r.hasBaseline() ? artifact(r.getBaseline()) : null, r.hasCandidate() ? artifact(r.getCandidate()) : null,
        r.getMetricsList().stream().map(m -> new HistoryEntry.Metric(m.getMetric(), m.getUnit(), m.getBetter(),
            m.getGating(), m.getBaselineCenter(), m.getCandidateCenter(), m.getChange(), m.getCiLow(),
            m.getCiHigh(), m.getVerdict())).toList(),
        r.getOverall(), r.getAccepted(), r.getMessage(), r.getSimulation(), r.getDecision(), r.getDecidedBy(),
        r.getDecisionReason());
  }

  private static NightlyKernel kernel(HistoryEntry.Artifact a) {
    return NightlyKernel.newBuilder().setPath(nonNull(a.path())).setSha256(nonNull(a.sha256())).build();
  }

  private static HistoryEntry.Artifact artifact(NightlyKernel k) {
    return new HistoryEntry.Artifact(k.getPath(), k.getSha256());
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
