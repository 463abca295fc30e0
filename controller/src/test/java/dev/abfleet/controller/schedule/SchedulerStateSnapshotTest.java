package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.collection.PersistentMap;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The scheduler's snapshot, persistent maps inside, serializes with CBOR as plain maps. */
class SchedulerStateSnapshotTest {
  // application.conf's serializer bindings, as the journal uses them.
  static final ActorTestKit kit = ActorTestKit.create(
      ConfigFactory.parseString("pekko.actor.provider = local").withFallback(ConfigFactory.load()));

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void stateWithLeasesMarksStreaksAndNoiseSurvivesACborRoundTrip() {
    SchedulerState state = SchedulerState.empty().applyAll(List.of(
        new Scheduler.HostLeased("h1", 4, "e1"),
        new Scheduler.HostLeased("h2", 1, "e2"),
        new Scheduler.LeaseReleased("h2", 1),
        new Scheduler.HostDrained("h3", "maintenance"),
        new Scheduler.HostQuarantined("h4", "3 INFRA failures in a row", 1700000000000L),
        new Scheduler.InfraFailed("h5"),
        new Scheduler.InfraFailed("h5"),
        new Scheduler.NoiseRecorded("h1", new double[] {0.01, 0.02}, 8)));

    var back = (SchedulerState) new SerializationTestKit(kit.system()).verifySerialization(state, false);

    assertThat(state.leases().active()).isInstanceOf(PersistentMap.class);
    assertThat(back.leases()).isEqualTo(state.leases());
    assertThat(back.leases().nextEpoch("h2")).isEqualTo(2);
    assertThat(back.leases().heldBy()).as("counted again from the leases, not stored").containsExactly(
        java.util.Map.entry("e1", 1));
    assertThat(back.marks()).isEqualTo(state.marks());
    assertThat(back.health().streak("h5")).isEqualTo(2);
    assertThat(back.noise().residuals().get("h1")).containsExactly(0.01, 0.02);
    // Read back, the maps are persistent again: the next event still costs no copy.
    assertThat(back.apply(new Scheduler.LeaseReleased("h1", 4)).leases().active()).isEmpty();
  }
}
