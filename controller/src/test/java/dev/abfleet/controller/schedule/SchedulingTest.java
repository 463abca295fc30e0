package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostMarks;
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

class SchedulingTest {
  static final ActorTestKit kit = ActorTestKit.create();
  static final ActorRef<SessionMessage> session = kit.<SessionMessage>createTestProbe().ref();

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  static HostCapabilities host(String id, Map<String, List<String>> hypervisors) {
    return new HostCapabilities(id, "x86_64", 2, 4096, Map.of("pool", "ci"), hypervisors, "", "", "");
  }

  static HostCapabilities qemuHost(String id) {
    return host(id, Map.of("qemu", List.of("tcg")));
  }

  static Fleet fleetOf(String... ids) {
    Fleet fleet = Fleet.empty();
    for (String id : ids) {
      fleet = fleet.connected(qemuHost(id), session);
    }
    return fleet;
  }

  static Demand demand(String experimentId, String priority) {
    return new Demand(experimentId, HostSelector.any(), priority, null, true);
  }

  @Test
  void pinnedExperimentIsLeasedOnlyAHostWithACpuPerPinnedVcpu() {
    Fleet fleet = Fleet.empty()
        .connected(qemuHost("small"), session)
        .connected(new HostCapabilities("big", "x86_64", 8, 4096, Map.of(), Map.of("qemu", List.of("tcg")), "", "",
            ""), session);
    HostSelector pinned = HostSelector.any().pinning(new dev.abfleet.controller.fleet.PinNeed("ceiling", 4));
    Demands demands = Demands.empty().wanting(new Demand("e1", pinned, "pr", null, true));

    var grants = Scheduling.grant(fleet, LeaseBook.empty(), demands);

    assertThat(grants.leases()).extracting(Lease::hostId).containsExactly("big");
  }

  @Test
  void neverLeasesAHostTwice() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "e1"));
    Demands demands = Demands.empty().wanting(demand("e2", "pr"));

    var grants = Scheduling.grant(fleetOf("h1"), book, demands);

    assertThat(grants.leases()).isEmpty();
    assertThatThrownBy(() -> book.leased(new Lease("h1", 2, "e2")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void epochsStrictlyIncreasePerHost() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "e1")).released("h1", 1);

    var grants = Scheduling.grant(fleetOf("h1"), book, Demands.empty().wanting(demand("e1", "")));

    assertThat(grants.leases()).containsExactly(new Lease("h1", 2, "e1"));
    assertThatThrownBy(() -> book.leased(new Lease("h1", 1, "e1")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void roundRobinsHostsBetweenExperiments() {
    Demands demands = Demands.empty().wanting(demand("a", "adhoc")).wanting(demand("b", "adhoc"));

    var grants = Scheduling.grant(fleetOf("h1", "h2", "h3", "h4"), LeaseBook.empty(), demands);

    assertThat(grants.leases()).extracting(Lease::experimentId).containsExactly("a", "b", "a", "b");
    var next = Scheduling.grant(fleetOf("h5"), LeaseBook.empty(), grants.demands());
    assertThat(next.leases()).extracting(Lease::experimentId).containsExactly("a");
  }

  @Test
  void neverLeasesMoreHostsThanTheOpenPairsAnExperimentNeeds() {
    Demand small = new Demand("small", HostSelector.any(), "adhoc", null, true, java.util.Set.of(), 2);
    Demand big = new Demand("big", HostSelector.any(), "adhoc", null, true, java.util.Set.of(), 0);
    LeaseBook book = LeaseBook.empty().leased(new Lease("h0", 1, "small"));
    Demands demands = Demands.empty().wanting(small).wanting(big);

    var grants = Scheduling.grant(fleetOf("h0", "h1", "h2", "h3", "h4"), book, demands);

    assertThat(grants.leases()).extracting(Lease::experimentId)
        .as("small holds h0 and may take one more; the rest go to big")
        .containsExactlyInAnyOrder("small", "big", "big", "big");
  }

  @Test
  void refreshingADemandKeepsItsCapButForgetsDeclinedHosts() {
    Demand d = new Demand("e", HostSelector.any(), "adhoc", null, true, java.util.Set.of("h1"), 3);
    Demands demands = Demands.empty().wanting(d).declined("e", "h2").wanting(d);
    assertThat(demands.find("e").orElseThrow().openPairs()).isEqualTo(3);
    assertThat(demands.find("e").orElseThrow().declined()).isEmpty();
  }

  @Test
  void servesPrBeforeNightly() {
    Demands demands = Demands.empty().wanting(demand("night", "nightly")).wanting(demand("pr", "pr"));

    var grants = Scheduling.grant(fleetOf("h1"), LeaseBook.empty(), demands);

    assertThat(grants.leases()).extracting(Lease::experimentId).containsExactly("pr");
  }

  @Test
  void skipsSatisfiedExperimentsUntilTheyAskAgain() {
    Demands demands = Demands.empty().wanting(demand("a", "")).satisfied("a");

    assertThat(Scheduling.grant(fleetOf("h1"), LeaseBook.empty(), demands).leases()).isEmpty();
    assertThat(Scheduling.grant(fleetOf("h1"), LeaseBook.empty(), demands.wanting(demand("a", "")))
        .leases()).hasSize(1);
  }

  @Test
  void offlineHostIsNeitherLeasedNorIdle() {
    Fleet fleet = fleetOf("h1").disconnected("h1", session);

    var grants = Scheduling.grant(fleet, LeaseBook.empty(), Demands.empty().wanting(demand("a", "")));

    assertThat(grants.leases()).isEmpty();
  }

  @Test
  void matchesOnlyHypervisorsWithAccelerators() {
    Fleet fleet = Fleet.empty()
        .connected(host("broken", Map.of("qemu", List.of())), session)
        .connected(host("vz", Map.of("vz", List.of("hvf"))), session)
        .connected(qemuHost("ok"), session);

    var grants = Scheduling.grant(fleet, LeaseBook.empty(), Demands.empty().wanting(demand("a", "")));

    assertThat(grants.leases()).extracting(Lease::hostId).containsExactly("ok");
  }

  @Test
  void selectorRequiresEveryLabelAndListedHost() {
    HostSelector selector = new HostSelector("qemu", "x86_64", Map.of("pool", "ci"), List.of("h2"));

    assertThat(selector.matches(qemuHost("h1"))).isFalse();
    assertThat(selector.matches(qemuHost("h2"))).isTrue();
    assertThat(new HostSelector("", "", Map.of("pool", "perf"), List.of()).matches(qemuHost("h2")))
        .isFalse();
    assertThat(new HostSelector("", "aarch64", Map.of(), List.of()).matches(qemuHost("h2")))
        .isFalse();
  }

  @Test
  void waitingPrTakesTheHostOfTheLowestPriority() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "adhoc"))
        .leased(new Lease("h2", 1, "night"));
    Demands demands = Demands.empty().wanting(demand("adhoc", "adhoc"))
        .wanting(demand("night", "nightly")).wanting(demand("pr", "pr"));

    var chosen = Scheduling.preemptions(fleetOf("h1", "h2"), book, HostMarks.none(), demands, Map.of());

    assertThat(chosen).containsExactly(new Scheduling.Preemption(new Lease("h2", 1, "night"), "pr"));
  }

  @Test
  void victimIsTheHostWhoseBootInProgressBeganFirst() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "night"))
        .leased(new Lease("h2", 1, "night")).leased(new Lease("h3", 1, "night"));
    Demands demands = Demands.empty().wanting(demand("night", "nightly")).wanting(demand("pr", "pr"));

    var chosen = Scheduling.preemptions(fleetOf("h1", "h2", "h3"), book, HostMarks.none(), demands, Map.of(),
        Map.of("h1", 5_000L, "h2", 1_000L, "h3", 3_000L));

    assertThat(chosen).extracting(p -> p.victim().hostId()).containsExactly("h2");
    assertThat(Scheduling.preemptions(fleetOf("h1", "h2", "h3"), book, HostMarks.none(), demands, Map.of(),
        Map.of("h3", 1_000L))).as("a host with unknown start counts as just begun")
        .extracting(p -> p.victim().hostId()).containsExactly("h3");
  }

  @Test
  void neverPreemptsEqualPriorityOrAHostAlreadyBeingPreempted() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "night"));
    Demands demands = Demands.empty().wanting(demand("night", "nightly"))
        .wanting(demand("night2", "nightly")).wanting(demand("pr", "pr"));

    assertThat(Scheduling.preemptions(fleetOf("h1"), book, HostMarks.none(), demands,
        Map.of("h1", "pr"))).isEmpty();
    assertThat(Scheduling.preemptions(fleetOf("h1"), book, HostMarks.none(),
        demands.without("pr"), Map.of())).isEmpty();
  }

  @Test
  void experimentHoldingAHostWaitsForBlockBoundariesInstead() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "pr"))
        .leased(new Lease("h2", 1, "night"));
    Demands demands = Demands.empty().wanting(demand("night", "nightly")).wanting(demand("pr", "pr"));

    assertThat(Scheduling.preemptions(fleetOf("h1", "h2"), book, HostMarks.none(), demands, Map.of()))
        .isEmpty();
  }

  @Test
  void drainedOrQuarantinedHostsAreNeitherLeasedNorPreempted() {
    HostMarks marks = HostMarks.none().drained("h1")
        .quarantinedHost("h2", new HostMarks.Quarantine("broken", 0));
    Demands demands = Demands.empty().wanting(demand("a", "pr"));

    assertThat(Scheduling.grant(fleetOf("h1", "h2", "h3"), LeaseBook.empty(), marks, demands)
        .leases()).extracting(Lease::hostId).containsExactly("h3");
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "n"));
    assertThat(Scheduling.preemptions(fleetOf("h1"), book, marks,
        demands.wanting(demand("n", "nightly")), Map.of())).isEmpty();
  }

  @Test
  void queuePositionCountsOnlyWaitingExperimentsWithoutAHostInServiceOrder() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "running"));
    Demands demands = Demands.empty().wanting(demand("running", "adhoc"))
        .wanting(demand("night", "nightly")).wanting(demand("pr", "pr"))
        .wanting(demand("done", "adhoc")).satisfied("done");

    Map<String, Scheduler.Standing> standings = Scheduling.standings(book, demands);

    assertThat(standings.get("running")).isEqualTo(new Scheduler.Standing(0, 1));
    assertThat(standings.get("pr")).isEqualTo(new Scheduler.Standing(1, 0));
    assertThat(standings.get("night")).isEqualTo(new Scheduler.Standing(2, 0));
    assertThat(standings).doesNotContainKeys("done", "never-submitted");
  }
}
