package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FenceTest {
  @Test
  void aHostsEpochsRiseFromOne() {
    assertThat(Fence.next(null)).isEqualTo(1);
    assertThat(Fence.next(41L)).isEqualTo(42);
  }

  @Test
  void onlyTheLeaseInForceHoldsItsEpoch() {
    Lease lease = new Lease("h1", 7, "e-1");

    assertThat(Fence.inForce(lease, 7)).isTrue();
    assertThat(Fence.inForce(lease, 6)).as("an earlier lease of the host").isFalse();
    assertThat(Fence.inForce(null, 7)).as("no lease in force").isFalse();
  }

  @Test
  void aReportIsAdmittedOnlyUnderItsBlocksEpoch() {
    assertThat(Fence.admits(7, 7)).isTrue();
    assertThat(Fence.admits(7, 6)).isFalse();
    assertThat(Fence.admits(7, 8)).isFalse();
  }

  @Test
  void aLeaseThatDoesNotRiseIsRefused() {
    Fence.checkRises(new Lease("h1", 5, "e-1"), 4L);
    assertThatThrownBy(() -> Fence.checkRises(new Lease("h1", 4, "e-1"), 4L))
        .isInstanceOf(IllegalStateException.class).hasMessage("epoch 4 of host h1 does not increase");
  }

  @Test
  void theLeaseBookFollowsTheFence() {
    LeaseBook book = LeaseBook.empty().leased(new Lease("h1", Fence.next(null), "e-1"));

    assertThat(book.isCurrent("h1", 1)).isTrue();
    assertThat(book.nextEpoch("h1")).isEqualTo(2);
    assertThat(book.released("h1", 0)).as("a stale release changes nothing").isEqualTo(book);
    assertThat(book.released("h1", 1).isLeased("h1")).isFalse();
  }
}
