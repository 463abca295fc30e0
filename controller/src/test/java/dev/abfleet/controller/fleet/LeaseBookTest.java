package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LeaseBookTest {

  @Test
  void theCountOfLeasesPerExperimentFollowsEveryLeaseAndRelease() {
    Random random = new Random(7);
    LeaseBook book = LeaseBook.empty();
    for (int step = 0; step < 2_000; step++) {
      String host = "h" + random.nextInt(40);
      if (book.isLeased(host)) {
        long epoch = book.leaseOf(host).orElseThrow().epoch();
        // Now and then a stale release first: it must change nothing.
        book = book.released(host, epoch - 1).released(host, random.nextInt(4) == 0 ? epoch + 1 : epoch);
      } else {
        book = book.leased(new Lease(host, book.nextEpoch(host), "e" + random.nextInt(5)));
      }
      assertThat(book.heldBy()).as("after step %d", step).isEqualTo(counted(book));
    }
  }

  @Test
  void aBookReadWithoutCountsCountsItsLeases() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", 1, "e1")).leased(new Lease("h2", 1, "e1"))
        .leased(new Lease("h3", 1, "e2"));

    LeaseBook read = new LeaseBook(Map.copyOf(book.lastEpoch()), Map.copyOf(book.active()), null);

    assertThat(read.held("e1")).isEqualTo(2);
    assertThat(read.held("e2")).isEqualTo(1);
    assertThat(read.held("e3")).isZero();
    assertThat(read.released("h3", 1).heldBy()).containsOnlyKeys("e1");
  }

  private static Map<String, Integer> counted(LeaseBook book) {
    Map<String, Integer> held = new HashMap<>();
    book.active().values().forEach(l -> held.merge(l.experimentId(), 1, Integer::sum));
    return held;
  }
}
