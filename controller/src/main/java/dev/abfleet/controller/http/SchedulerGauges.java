package dev.abfleet.controller.http;

import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.schedule.SchedulerProtocol;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/** The fleet gauges of {@code /metrics}, asked of the scheduler singleton at each scrape. */
public final class SchedulerGauges {
  private SchedulerGauges() {}

  /** A source for {@link ControllerMetrics#fleetSource}: one ListHosts ask per scrape. */
  public static Supplier<CompletionStage<FleetGauges>> source(ActorSystem<?> system,
      ActorRef<Scheduler.Command> scheduler, Duration timeout) {
    return () -> AskPattern.<Scheduler.Command, SchedulerProtocol.Hosts>ask(scheduler,
            SchedulerProtocol.ListHosts::new, timeout, system.scheduler())
        .thenCombine(AskPattern.<Scheduler.Command, SchedulerProtocol.Queue>ask(scheduler,
            SchedulerProtocol.GetQueue::new, timeout, system.scheduler()),
            (hosts, queue) -> of(hosts.hosts(), queue.waitingByPriority()));
  }

  /** Hosts by state (every state, 0 included), the hosts under lease, and the line by priority. */
  static FleetGauges of(List<HostView> hosts, Map<String, Integer> waitingByPriority) {
    Map<String, Integer> byState = new LinkedHashMap<>();
    for (HostView.State s : HostView.State.values()) {
      byState.put(s.wire(), 0);
    }
    int leases = 0;
    for (HostView h : hosts) {
      byState.merge(h.state().wire(), 1, Integer::sum);
      if (h.leasedTo() != null && !h.leasedTo().isEmpty()) {
        leases++;
      }
    }
    return new FleetGauges(byState, leases, waitingByPriority, 0);
  }
}
