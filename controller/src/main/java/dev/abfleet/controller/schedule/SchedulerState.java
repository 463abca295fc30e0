package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.HostMarks;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import java.util.List;

/** The scheduler's durable facts: leases and their epochs, and the hosts' operator/health marks. */
public record SchedulerState(LeaseBook leases, HostMarks marks) implements CborSerializable {

  public static SchedulerState empty() {
    return new SchedulerState(LeaseBook.empty(), HostMarks.none());
  }

  public SchedulerState apply(Scheduler.Event event) {
    if (event instanceof Scheduler.HostLeased e) {
      return new SchedulerState(leases.leased(new Lease(e.hostId(), e.epoch(), e.experimentId())),
          marks);
    } else if (event instanceof Scheduler.LeaseReleased e) {
      return new SchedulerState(leases.released(e.hostId(), e.epoch()), marks);
    } else if (event instanceof Scheduler.HostDrained e) {
      return new SchedulerState(leases, marks.drained(e.hostId()));
    } else if (event instanceof Scheduler.HostUndrained e) {
      return new SchedulerState(leases, marks.undrained(e.hostId()));
    } else if (event instanceof Scheduler.HostQuarantined e) {
      return new SchedulerState(leases,
          marks.quarantinedHost(e.hostId(), new HostMarks.Quarantine(e.reason(), e.sinceEpochMs())));
    } else if (event instanceof Scheduler.HostReleased e) {
      return new SchedulerState(leases, marks.released(e.hostId()));
    }
    throw new IllegalStateException("unknown event " + event);
  }

  public SchedulerState applyAll(List<Scheduler.Event> events) {
    SchedulerState s = this;
    for (Scheduler.Event e : events) {
      s = s.apply(e);
    }
    return s;
  }
}
