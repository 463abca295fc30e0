package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import dev.abfleet.controller.fleet.SessionMessage;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Builds are leased like blocks: one lease per host, only to hosts that build the arch. */
class BuildSchedulingTest {
  static final ActorTestKit kit = ActorTestKit.create();
  static final ActorRef<SessionMessage> session = kit.<SessionMessage>createTestProbe().ref();

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  static HostCapabilities builder(String id, String... arches) {
    return new HostCapabilities(id, "x86_64", 2, 4096, Map.of(), Map.of("qemu", List.of("tcg")), "", "", "")
        .building(List.of(arches), "gcc 12; make 4.3");
  }

  static Demand build(String id, String arch) {
    return new Demand("build-" + id, HostSelector.forBuild(arch), "adhoc", null, true, java.util.Set.of(), 1);
  }

  @Test
  void aBuildIsNeverLeasedToAHostThatHoldsALease() {
    Fleet fleet = Fleet.empty().connected(builder("w1", "x86_64"), session).connected(builder("w2", "x86_64"), session);
    LeaseBook leases = LeaseBook.empty().leased(new Lease("w1", 7, "e1"));
    Demands demands = Demands.empty().wanting(build("b1", "x86_64"));

    var grants = Scheduling.grant(fleet, leases, demands);

    assertThat(grants.leases()).extracting(Lease::hostId).containsExactly("w2");
  }

  @Test
  void aBuildWaitsWhileEveryBuilderMeasuresABoot() {
    Fleet fleet = Fleet.empty().connected(builder("w1", "x86_64"), session);
    LeaseBook leases = LeaseBook.empty().leased(new Lease("w1", 3, "e1"));

    var grants = Scheduling.grant(fleet, leases, Demands.empty().wanting(build("b1", "x86_64")));

    assertThat(grants.leases()).isEmpty();
  }

  @Test
  void aHostBuildingTakesNoBlockUntilTheBuildLeaseEnds() {
    Fleet fleet = Fleet.empty().connected(builder("w1", "x86_64"), session);
    LeaseBook building = LeaseBook.empty().leased(new Lease("w1", 4, "build-b1"));
    Demands experiment = Demands.empty().wanting(new Demand("e1", HostSelector.any(), "pr", null, true));

    assertThat(Scheduling.grant(fleet, building, experiment).leases()).isEmpty();
    assertThat(Scheduling.grant(fleet, building.released("w1", 4), experiment).leases())
        .extracting(Lease::hostId, Lease::epoch).containsExactly(org.assertj.core.groups.Tuple.tuple("w1", 5L));
  }

  @Test
  void onlyHostsThatBuildTheArchMatch() {
    Fleet fleet = Fleet.empty()
        .connected(builder("plain"), session)
        .connected(builder("x86only", "x86_64"), session)
        .connected(builder("cross", "x86_64", "aarch64"), session);

    var grants = Scheduling.grant(fleet, LeaseBook.empty(), Demands.empty().wanting(build("b1", "aarch64")));

    assertThat(grants.leases()).extracting(Lease::hostId).containsExactly("cross");
  }

  @Test
  void aBuildHoldsOneLeaseAtATime() {
    Fleet fleet = Fleet.empty().connected(builder("w1", "x86_64"), session).connected(builder("w2", "x86_64"), session);

    var grants = Scheduling.grant(fleet, LeaseBook.empty(), Demands.empty().wanting(build("b1", "x86_64")));

    assertThat(grants.leases()).hasSize(1);
  }
}
