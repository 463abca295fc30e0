package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.HostHealth;
import dev.abfleet.controller.fleet.HostMarks;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import dev.abfleet.controller.fleet.NoiseHistory;
import java.util.List;

/**
 * The scheduler's durable facts: leases and their epochs, the hosts' operator/health marks, and
 * the histories quarantines are decided from (INFRA streaks, paired noise).
 */
public record SchedulerState(LeaseBook leases, HostMarks marks, HostHealth health, NoiseHistory noise)
    implements CborSerializable {

  public SchedulerState {
    health = health == null ? HostHealth.healthy() : health;
    noise = noise == null ? NoiseHistory.empty() : noise;
  }

  public static SchedulerState empty() {
    return new SchedulerState(LeaseBook.empty(), HostMarks.none(), HostHealth.healthy(), NoiseHistory.empty());
  }

  public SchedulerState apply(Scheduler.Event event) {
    if (event instanceof Scheduler.HostLeased e) {
      return withLeases(leases.leased(new Lease(e.hostId(), e.epoch(), e.experimentId())));
    } else if (event instanceof Scheduler.LeaseReleased e) {
      return withLeases(leases.released(e.hostId(), e.epoch()));
    } else if (event instanceof Scheduler.HostDrained e) {
      return new SchedulerState(leases, marks.drained(e.hostId(), e.reason()), health, noise);
    } else if (event instanceof Scheduler.HostUndrained e) {
      return new SchedulerState(leases, marks.undrained(e.hostId()), health, noise);
    } else if (event instanceof Scheduler.HostQuarantined e) {
      // The noise starts over after the repair: the old history says nothing about it.
      return new SchedulerState(leases,
          marks.quarantinedHost(e.hostId(), new HostMarks.Quarantine(e.reason(), e.sinceEpochMs())),
          health, noise.forgotten(e.hostId()));
    } else if (event instanceof Scheduler.HostReleased e) {
      return new SchedulerState(leases, marks.released(e.hostId()), health.cleared(e.hostId()), noise);
    } else if (event instanceof Scheduler.InfraFailed e) {
      return new SchedulerState(leases, marks, health.failed(e.hostId()), noise);
    } else if (event instanceof Scheduler.InfraStreakEnded e) {
      return new SchedulerState(leases, marks, health.cleared(e.hostId()), noise);
    } else if (event instanceof Scheduler.NoiseRecorded e) {
      return new SchedulerState(leases, marks, health, noise.observed(e.hostId(), e.residuals(), e.keep()));
    }
    throw new IllegalStateException("unknown event " + event);
  }

  /** How many entries a snapshot of this state writes (hosts, leases, marks, histories). */
  public long entries() {
    return (long) leases.lastEpoch().size() + leases.active().size() + marks.draining().size()
        + marks.quarantined().size() + health.streaks().size() + noise.residuals().size();
  }

  private SchedulerState withLeases(LeaseBook next) {
    return new SchedulerState(next, marks, health, noise);
  }

  public SchedulerState applyAll(List<Scheduler.Event> events) {
    SchedulerState s = this;
    for (Scheduler.Event e : events) {
      s = s.apply(e);
    }
    return s;
  }
}
