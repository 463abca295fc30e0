package dev.abfleet.bench.sim;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.PekkoConfig;
import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.schedule.SchedulerState;
import dev.abfleet.controller.store.EventStore;
import dev.abfleet.controller.store.StoreSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * What one change of the scheduler's state costs at fleet size: N hosts connected one by one,
 * each leased once, each released, each disconnected, applied to the scheduler's state types
 * directly (no actor, no journal); then the real scheduler actor (journal in the given store)
 * registering N hosts one by one until ListHosts shows them all. Uses only the scheduler's
 * public types, so the same code measures any version of them.
 */
public final class FleetStateBench {
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  /** Nanoseconds per operation of each kind, and the actor's registration time in ms. */
  public record Figures(int hosts, double connectNs, double leaseNs, double releaseNs,
      double disconnectNs, double registerMs) {}

  private FleetStateBench() {}

  public static Figures run(ControllerSettings settings, int hosts) throws Exception {
    List<HostCapabilities> caps = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      caps.add(host(String.format("sim-%05d", i)));
    }
    stateOps(caps); // the first pass warms the JIT
    double[] state = stateOps(caps);
    return new Figures(hosts, state[0], state[1], state[2], state[3], registerAll(settings, caps));
  }

  /** ns per connect, lease, release, disconnect over all hosts. */
  private static double[] stateOps(List<HostCapabilities> caps) throws Exception {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "fleet-state-ops");
    try {
      ActorRef<SessionMessage> session = system.systemActorOf(Behaviors.ignore(), "session", Props.empty());
      int n = caps.size();
      long t0 = System.nanoTime();
      Fleet fleet = Fleet.empty();
      for (HostCapabilities c : caps) {
        fleet = fleet.connected(c, session);
      }
      long t1 = System.nanoTime();
      SchedulerState s = SchedulerState.empty();
      for (HostCapabilities c : caps) {
        s = s.apply(new Scheduler.HostLeased(c.hostId(), 1, "exp-" + (c.hashCode() % 100)));
      }
      long t2 = System.nanoTime();
      for (HostCapabilities c : caps) {
        s = s.apply(new Scheduler.LeaseReleased(c.hostId(), 1));
      }
      long t3 = System.nanoTime();
      for (HostCapabilities c : caps) {
        fleet = fleet.disconnected(c.hostId(), session);
      }
      long t4 = System.nanoTime();
      if (!s.leases().active().isEmpty() || fleet.hosts().values().stream().anyMatch(Fleet.Host::online)) {
        throw new IllegalStateException("bench state did not end empty");
      }
      return new double[] {(t1 - t0) / (double) n, (t2 - t1) / (double) n, (t3 - t2) / (double) n,
          (t4 - t3) / (double) n};
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** ms from the first RegisterHost to a ListHosts reply that holds every host. */
  private static double registerAll(ControllerSettings settings, List<HostCapabilities> caps) throws Exception {
    OptionalInt found = EventStore.schemaVersion(settings);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME, PekkoConfig.of(settings));
    try {
      if (StoreSchema.plan(found, EventStore.name(settings)) == StoreSchema.Plan.CREATE) {
        EventStore.createSchema(system, settings, found);
      }
      ActorRef<Scheduler.Command> scheduler =
          system.systemActorOf(Scheduler.create(), "scheduler", Props.empty());
      List<ActorRef<SessionMessage>> sessions = new ArrayList<>();
      for (int i = 0; i < caps.size(); i++) {
        sessions.add(system.systemActorOf(Behaviors.<SessionMessage>ignore(), "session-" + i, Props.empty()));
      }
      hostCount(system, scheduler); // recovery done
      long start = System.nanoTime();
      for (int i = 0; i < caps.size(); i++) {
        scheduler.tell(new Scheduler.RegisterHost(caps.get(i), sessions.get(i)));
      }
      while (hostCount(system, scheduler) < caps.size()) {
        Thread.sleep(5);
      }
      return (System.nanoTime() - start) / 1e6;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static int hostCount(ActorSystem<Void> system, ActorRef<Scheduler.Command> scheduler) throws Exception {
    return AskPattern.<Scheduler.Command, Scheduler.Hosts>ask(scheduler, Scheduler.ListHosts::new, TIMEOUT,
            system.scheduler())
        .toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).hosts().size();
  }

  private static HostCapabilities host(String id) {
    return new HostCapabilities(id, "x86_64", 2, 4096, Map.of("pool", "sim"),
        Map.of("sim", List.of("sim")), "", "", "");
  }
}
