package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class HostPageTest {
  static final ActorTestKit kit = ActorTestKit.create();
  static final ActorRef<SessionMessage> session = kit.<SessionMessage>createTestProbe().ref();

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  /** h00..h24 connected; h03 and h07 leased; h05 drained (still leased); h24 offline; h10 quarantined. */
  static final class Hosts {
    Fleet fleet = Fleet.empty();
    LeaseBook leases = LeaseBook.empty();
    HostMarks marks = HostMarks.none();

    Hosts() {
      // Connected in an order other than the ids', so the page's order is the listing's own.
      for (int i = 24; i >= 0; i--) {
        fleet = fleet.connected(FreeHostsTest.host(String.format("h%02d", i), "qemu", "x86_64"), session);
      }
      for (String id : List.of("h03", "h05", "h07")) {
        leases = leases.leased(new Lease(id, leases.nextEpoch(id), "e1"));
      }
      marks = marks.drained("h05").quarantinedHost("h10", new HostMarks.Quarantine("noisy", 0));
      fleet = fleet.disconnected("h24", session);
    }

    HostPage.Listing page(HostPage page) {
      return HostView.page(page, fleet, leases, marks, HostHealth.healthy(), Map.of(), NoiseHistory.empty(), 1, null);
    }
  }

  static List<String> ids(HostPage.Listing l) {
    return l.hosts().stream().map(v -> v.capabilities().hostId()).toList();
  }

  @Test
  void pagesWalkEveryHostOnceInIdOrderAndEndWithAnEmptyToken() {
    Hosts hosts = new Hosts();
    List<String> seen = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      HostPage.Listing l = hosts.page(new HostPage(token, 7));
      seen.addAll(ids(l));
      token = l.next();
      pages++;
    } while (!token.isEmpty());
    assertThat(pages).isEqualTo(4);
    assertThat(seen).hasSize(25).isSorted().doesNotHaveDuplicates();
    assertThat(seen).isEqualTo(ids(hosts.page(HostPage.ALL)));
  }

  @Test
  void aPageThatEndsExactlyAtTheLastHostSaysNoMoreFollow() {
    Hosts hosts = new Hosts();
    HostPage.Listing first = hosts.page(new HostPage("", 25));
    assertThat(first.hosts()).hasSize(25);
    assertThat(first.next()).isEmpty();
    HostPage.Listing second = hosts.page(new HostPage("", 24));
    assertThat(second.next()).isEqualTo("h23");
    assertThat(ids(hosts.page(new HostPage(second.next(), 24)))).containsExactly("h24");
  }

  @Test
  void countsCoverTheWholeFleetWhateverThePage() {
    Hosts hosts = new Hosts();
    for (HostPage page : List.of(HostPage.COUNTS, new HostPage("h20", 2), HostPage.ALL)) {
      HostPage.Counts c = hosts.page(page).counts();
      assertThat(c.total()).isEqualTo(25);
      assertThat(c.connected()).isEqualTo(24);
      assertThat(c.leases()).as("h05 is draining and still holds its lease").isEqualTo(3);
      assertThat(c.byState()).containsOnly(Map.entry("idle", 20), Map.entry("leased", 2),
          Map.entry("draining", 1), Map.entry("quarantined", 1), Map.entry("offline", 1));
    }
    assertThat(hosts.page(HostPage.COUNTS).hosts()).isEmpty();
  }

  @Test
  void pageViewsAreTheListingsViews() {
    Hosts hosts = new Hosts();
    assertThat(hosts.page(HostPage.ALL).hosts())
        .isEqualTo(HostView.list(hosts.fleet, hosts.leases, hosts.marks, HostHealth.healthy()));
  }

  @Test
  void refusesALimitBelowEvery() {
    assertThatThrownBy(() -> new HostPage("", -2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-2");
  }
}
