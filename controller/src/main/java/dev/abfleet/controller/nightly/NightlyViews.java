package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** What {@link Nightly} answers about its schedules and runs: plain functions of its state. */
final class NightlyViews {
  private NightlyViews() {}

  /** Each schedule with its next fire time (empty when it never fires), last run and runs under way. */
  static Nightly.Schedules schedules(NightlyState state, Collection<NightlySchedule> schedules,
      Map<String, Instant> nextDue) {
    List<Nightly.ScheduleView> views = new ArrayList<>();
    for (NightlySchedule s : schedules) {
      List<RunRecord> runs = state.runs(s.name());
      Instant next = nextDue.get(s.name());
      List<String> running = state.started().values().stream()
          .filter(r -> r.schedule().equals(s.name())).map(NightlyEvent.RunStarted::experimentId).sorted().toList();
      views.add(new Nightly.ScheduleView(s.name(), s.cron().toString(), s.zone().getId(),
          next == null ? "" : next.toString(), s.simulation(), runs.isEmpty() ? null : runs.get(runs.size() - 1),
          running));
    }
    return new Nightly.Schedules(views);
  }

  /** The run with this experiment id: finished, running (started, not finished) or unknown. */
  static Nightly.RunStatus run(NightlyState state, String experimentId) {
    var done = state.run(experimentId);
    if (done.isPresent()) {
      return new Nightly.RunStatus("finished", done.get());
    }
    return new Nightly.RunStatus(state.started().containsKey(experimentId) ? "running" : "unknown", null);
  }

  /**
   * Why the run cannot be decided by an operator now; null when it can (it is finished and held).
   *
   * @param resolving runs whose kernels are being found (started, not recorded yet)
   */
  static Nightly.RunDecision refusal(NightlyState state, String experimentId, java.util.Set<String> resolving) {
    var run = state.run(experimentId);
    if (run.isEmpty()) {
      boolean underWay = state.started().containsKey(experimentId) || resolving.contains(experimentId);
      return new Nightly.RunDecision(underWay ? "not_held" : "unknown", null, underWay
          ? "run " + experimentId + " is still running; decide it once it has finished and is held"
          : "no nightly run " + experimentId + "; the run is its experiment id, e.g. night-20260310T0230Z"
              + " (abfleet history METRIC --controller X lists them)");
    }
    RunRecord r = run.get();
    if (!r.held()) {
      return new Nightly.RunDecision("not_held", r, "run " + experimentId + " is " + r.decision()
          + (r.decidedBy().isEmpty() ? "" : " by the " + r.decidedBy())
          + (r.decisionReason().isEmpty() ? "" : " (" + r.decisionReason() + ")")
          + "; only a held run (gate inconclusive) can be accepted or rejected");
    }
    return null;
  }
}
