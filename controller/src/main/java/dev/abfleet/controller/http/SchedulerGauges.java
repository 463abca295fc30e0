package dev.abfleet.controller.http;

import dev.abfleet.controller.fleet.HostPage;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.schedule.SchedulerProtocol;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/** The fleet gauges of {@code /metrics}, asked of the scheduler singleton at each scrape. */
public final class SchedulerGauges {
  private SchedulerGauges() {}

  /** A source for {@link ControllerMetrics#fleetSource}: one ListHosts ask (counts only) per scrape. */
  public static Supplier<CompletionStage<FleetGauges>> source(ActorSystem<?> system,
      ActorRef<Scheduler.Command> scheduler, Duration timeout) {
    return () -> AskPattern.<Scheduler.Command, SchedulerProtocol.Hosts>ask(scheduler,
            replyTo -> new SchedulerProtocol.ListHosts(HostPage.COUNTS, replyTo), timeout, system.scheduler())
        .thenCombine(AskPattern.<Scheduler.Command, SchedulerProtocol.Queue>ask(scheduler,
            SchedulerProtocol.GetQueue::new, timeout, system.scheduler()),
            (hosts, queue) -> of(hosts.listing().counts(), queue.waitingByPriority()));
  }

  /** Hosts by state (every state, 0 included), the hosts under lease, and the line by priority. */
  static FleetGauges of(HostPage.Counts hosts, Map<String, Integer> waitingByPriority) {
    return new FleetGauges(hosts.byState(), hosts.leases(), waitingByPriority, 0);
  }
}
