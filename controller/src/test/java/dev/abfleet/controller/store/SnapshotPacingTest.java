package dev.abfleet.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.junit.jupiter.api.Test;

class SnapshotPacingTest {

  /** Sequence numbers of the paced snapshots over events 1..n, for a state weighing weight(seqNr). */
  static List<Long> pacedSnapshots(SnapshotPacing pacing, long from, long to, LongUnaryOperator weight) {
    List<Long> at = new ArrayList<>();
    for (long seq = from; seq <= to; seq++) {
      if (pacing.due(seq, weight.applyAsLong(seq))) {
        at.add(seq);
      }
    }
    return at;
  }

  @Test
  void offNeverSnapshotsAndKeepsEverySnapshot() {
    SnapshotPacing off = new SnapshotPacing(0);
    assertThat(pacedSnapshots(off, 1, 50_000, seq -> 1)).isEmpty();
    assertThat(off.retention()).isEqualTo(RetentionCriteria.disabled());
  }

  @Test
  void aSmallStateSnapshotsEveryEveryEvents() {
    assertThat(pacedSnapshots(new SnapshotPacing(100), 1, 450, seq -> 7))
        .containsExactly(100L, 200L, 300L, 400L);
  }

  @Test
  void aLargeStateWaitsAsManyEventsAsItHasEntries() {
    // A 4,000-host scheduler: one snapshot per 4,000 events, where a fixed interval took 100;
    // Pekko's retention takes the one at 10,000 and the pace starts over from there.
    assertThat(pacedSnapshots(new SnapshotPacing(100), 1, 20_000, seq -> 4_000))
        .containsExactly(4_000L, 8_000L, 14_000L, 18_000L);
  }

  @Test
  void theCountBasedRetentionSnapshotCapsTheIntervalAndRestartsThePace() {
    SnapshotPacing pacing = new SnapshotPacing(100);
    // Every 10,000 events Pekko's retention saves one (and deletes older ones): never paced twice.
    List<Long> at = pacedSnapshots(pacing, 1, 30_000, seq -> 1_000_000);
    assertThat(at).isEmpty();
    assertThat(pacing.retention()).isNotEqualTo(RetentionCriteria.disabled());
    assertThat(pacedSnapshots(pacing, 30_001, 30_200, seq -> 1)).containsExactly(30_100L, 30_200L);
  }

  @Test
  void aGrowingStateWritesSnapshotsLinearInItsHistoryNotQuadratic() {
    // An experiment: every event adds to the state, and a snapshot writes all of it.
    LongUnaryOperator weight = seq -> seq / 2;
    long events = 9_999;
    long paced = pacedSnapshots(new SnapshotPacing(100), 1, events, weight).stream()
        .mapToLong(weight::applyAsLong).sum();
    long fixed = 0;
    for (long seq = 100; seq <= events; seq += 100) {
      fixed += weight.applyAsLong(seq);
    }
    long finalSize = weight.applyAsLong(events);
    assertThat(paced).as("paced: a few times the final state").isLessThanOrEqualTo(4 * finalSize);
    assertThat(fixed).as("every 100 events: grows with the square").isGreaterThan(40 * finalSize);
  }

  @Test
  void theFirstEventAfterARecoverySnapshotsTheReplayedTail() {
    SnapshotPacing restarted = new SnapshotPacing(100);
    assertThat(restarted.due(123_456, 5_000)).isTrue();
    assertThat(restarted.due(123_457, 5_000)).isFalse();
  }

  @Test
  void aNegativeIntervalIsRefusedWithTheFix() {
    assertThatThrownBy(() -> new SnapshotPacing(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("use 0 (off) or more");
  }
}
