package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class FreeHostsTest {
  static final ActorTestKit kit = ActorTestKit.create();
  static final ActorRef<SessionMessage> session = kit.<SessionMessage>createTestProbe().ref();

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  static HostCapabilities host(String id, String hypervisor, String arch) {
    return new HostCapabilities(id, arch, 2, 4096, Map.of("pool", "ci"), Map.of(hypervisor, List.of("tcg")),
        "", "", "");
  }

  @Test
  void keepsTheIndexEqualToAScanThroughConnectsLeasesReleasesMarksAndDisconnects() {
    Random random = new Random(7);
    Fleet fleet = Fleet.empty();
    LeaseBook leases = LeaseBook.empty();
    HostMarks marks = HostMarks.none();
    FreeHosts free = new FreeHosts();
    for (int step = 0; step < 5000; step++) {
      String id = "h" + random.nextInt(60);
      switch (random.nextInt(7)) {
        case 0 -> fleet = fleet.connected(host(id, random.nextBoolean() ? "qemu" : "vz",
            random.nextBoolean() ? "x86_64" : "aarch64"), session);
        case 1 -> fleet = fleet.disconnected(id, session);
        case 2 -> leases = leases.isLeased(id) ? leases : leases.leased(new Lease(id, leases.nextEpoch(id), "e"));
        case 3 -> {
          var lease = leases.leaseOf(id);
          leases = lease.isPresent() ? leases.released(id, lease.get().epoch()) : leases;
        }
        case 4 -> marks = marks.isDraining(id) ? marks.undrained(id) : marks.drained(id);
        case 5 -> marks = marks.quarantine(id).isPresent() ? marks.released(id)
            : marks.quarantinedHost(id, new HostMarks.Quarantine("test", 0));
        default -> fleet = fleet.connected(host(id, "qemu", "x86_64"), session);
      }
      free.refresh(id, fleet, leases, marks);
      Map<String, HostCapabilities> scanned = fleet.idle(leases, marks);
      assertThat(free.size()).as("step %d", step).isEqualTo(scanned.size());
      for (String h : scanned.keySet()) {
        assertThat(free.contains(h)).as("step %d host %s", step, h).isTrue();
      }
    }
  }

  @Test
  void firstMatchIsTheLowestFreeHostTheSelectorMatchesAcrossClasses() {
    Fleet fleet = Fleet.empty()
        .connected(host("b-vz", "vz", "aarch64"), session)
        .connected(host("c-qemu", "qemu", "x86_64"), session)
        .connected(host("d-qemu-arm", "qemu", "aarch64"), session)
        .connected(host("e-qemu", "qemu", "x86_64"), session);
    FreeHosts free = FreeHosts.of(fleet, LeaseBook.empty(), HostMarks.none());
    HostSelector qemu = new HostSelector("qemu", "", Map.of(), List.of(), List.of());
    HostSelector qemuArm = new HostSelector("qemu", "aarch64", Map.of(), List.of(), List.of());
    HostSelector vz = new HostSelector("vz", "", Map.of(), List.of(), List.of());

    assertThat(free.firstMatch(qemu, Set.of())).isEqualTo("c-qemu");
    assertThat(free.firstMatch(qemu, Set.of("c-qemu"))).isEqualTo("d-qemu-arm");
    assertThat(free.firstMatch(qemuArm, Set.of())).isEqualTo("d-qemu-arm");
    assertThat(free.firstMatch(vz, Set.of())).isEqualTo("b-vz");
    assertThat(free.firstMatch(new HostSelector("qemu", "", Map.of("pool", "gpu"), List.of(), List.of()), Set.of()))
        .isNull();
  }

  @Test
  void explicitHostsAreMatchedByIdAndLeasedHostsAreNotFree() {
    Fleet fleet = Fleet.empty()
        .connected(host("h1", "qemu", "x86_64"), session)
        .connected(host("h2", "qemu", "x86_64"), session)
        .connected(host("h3", "qemu", "x86_64"), session);
    LeaseBook leases = LeaseBook.empty().leased(new Lease("h2", 1, "e"));
    FreeHosts free = FreeHosts.of(fleet, leases, HostMarks.none());
    HostSelector only23 = new HostSelector("qemu", "", Map.of(), List.of("h3", "h2"), List.of());

    assertThat(free.firstMatch(only23, Set.of())).isEqualTo("h3");
    free.remove("h3");
    assertThat(free.firstMatch(only23, Set.of())).isNull();
    free.refresh("h2", fleet, leases.released("h2", 1), HostMarks.none());
    assertThat(free.firstMatch(only23, Set.of())).isEqualTo("h2");
  }

  @Test
  void aHostThatReconnectsWithOtherCapabilitiesMovesToItsNewClass() {
    Fleet fleet = Fleet.empty().connected(host("h1", "qemu", "x86_64"), session);
    FreeHosts free = FreeHosts.of(fleet, LeaseBook.empty(), HostMarks.none());
    fleet = fleet.connected(host("h1", "vz", "aarch64"), session);
    free.refresh("h1", fleet, LeaseBook.empty(), HostMarks.none());

    assertThat(free.firstMatch(new HostSelector("qemu", "", Map.of(), List.of(), List.of()), Set.of())).isNull();
    assertThat(free.firstMatch(new HostSelector("vz", "", Map.of(), List.of(), List.of()), Set.of())).isEqualTo("h1");
    assertThat(new TreeMap<>(fleet.idle(LeaseBook.empty()))).containsOnlyKeys("h1");
  }
}
