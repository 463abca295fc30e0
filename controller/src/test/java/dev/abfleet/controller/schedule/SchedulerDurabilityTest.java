package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.SessionMessage;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the scheduler decides quarantines from survives a restart (a singleton failover). */
class SchedulerDurabilityTest {
  final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.persistence.journal.plugin = "pekko.persistence.journal.inmem"
      pekko.persistence.snapshot-store.plugin = ""
      pekko.actor.serialization-bindings {
        "dev.abfleet.controller.CborSerializable" = jackson-cbor
      }
      """));
  final FleetPolicy policy = new FleetPolicy(3, 0.5, Duration.ofMinutes(30), 2);

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void infraStreakSurvivesASchedulerRestart() {
    ActorRef<Scheduler.Command> first = started();
    first.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));
    first.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));
    assertThat(host(first, "h1").infraFailures()).isEqualTo(2);
    kit.stop(first);

    ActorRef<Scheduler.Command> second = started();
    second.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));

    HostView h1 = host(second, "h1");
    assertThat(h1.state()).isEqualTo(HostView.State.QUARANTINED);
    assertThat(h1.stateReason()).isEqualTo("3 INFRA failures in a row; last: qemu missing");
  }

  @Test
  void noiseHistorySurvivesASchedulerRestart() {
    ActorRef<Scheduler.Command> first = started();
    first.tell(new Scheduler.NoiseObserved("quiet", Map.of("h1", filled(48, 0.01))));
    assertThat(host(first, "h1").state()).isEqualTo(HostView.State.IDLE);
    kit.stop(first);

    ActorRef<Scheduler.Command> second = started();
    second.tell(new Scheduler.NoiseObserved("loud", Map.of("h1", filled(24, 0.05))));

    HostView h1 = host(second, "h1");
    assertThat(h1.state()).as("drift needs the 48 residuals from before the restart")
        .isEqualTo(HostView.State.QUARANTINED);
    assertThat(h1.stateReason()).contains("paired noise drifted", "after experiment loud");
  }

  @Test
  void stateWithLeasesMarksStreaksAndNoiseSurvivesACborRoundTrip() {
    SchedulerState state = SchedulerState.empty().applyAll(List.of(
        new Scheduler.HostLeased("h1", 4, "e1"),
        new Scheduler.HostDrained("h2", "disk swap"),
        new Scheduler.HostQuarantined("h3", "3 INFRA failures in a row", 1_700_000_000_000L),
        new Scheduler.InfraFailed("h1"),
        new Scheduler.NoiseRecorded("h2", new double[] {0.01, 0.02}, 256)));

    Object back = new SerializationTestKit(kit.system()).verifySerialization(state, false);

    assertThat(back).usingRecursiveComparison().isEqualTo(state);
    assertThat(state.health().streak("h1")).isEqualTo(1);
    assertThat(state.noise().residuals().get("h2")).containsExactly(0.01, 0.02);
  }

  private ActorRef<Scheduler.Command> started() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create(policy));
    for (String h : List.of("h1", "h2")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    return scheduler;
  }

  private HostView host(ActorRef<Scheduler.Command> scheduler, String hostId) {
    TestProbe<Scheduler.Hosts> probe = kit.createTestProbe();
    scheduler.tell(new Scheduler.ListHosts(probe.ref()));
    return probe.receiveMessage().hosts().stream().filter(h -> h.capabilities().hostId().equals(hostId))
        .findFirst().orElseThrow();
  }

  private static double[] filled(int n, double value) {
    double[] r = new double[n];
    Arrays.fill(r, value);
    return r;
  }
}
