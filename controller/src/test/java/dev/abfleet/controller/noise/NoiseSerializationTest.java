package dev.abfleet.controller.noise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The ledger's events, snapshots and replies go through CBOR (the journal, other nodes) unchanged. */
class NoiseSerializationTest {
  static ActorTestKit kit;

  @BeforeAll
  static void start() {
    kit = TestActorKits.cbor();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  private static Object roundTrip(Object o) {
    return new SerializationTestKit(kit.system()).verifySerialization(o, false);
  }

  static NoiseRecord record(String cls, long experiments, long fps, double... diffs) {
    return new NoiseRecord(cls, experiments, fps, LocalDate.of(2026, 12, 3), List.of("metadata_stat", "seq_read"),
        List.of(MetricNoise.of("metadata_stat", Moments.of(31800, 31950, 31700, 32010), diffs),
            new MetricNoise("seq_read", Moments.EMPTY, Moments.EMPTY, List.of())));
  }

  @Test
  void aMergedEventKeepsEveryFieldOfTheRecord() {
    var event = new NoiseEvent.NoiseMerged(record("qemu/tcg", 3, 1, 0.0123, -0.0045, 0.0071));
    NoiseEvent.NoiseMerged back = (NoiseEvent.NoiseMerged) roundTrip(event);
    assertThat(back).isEqualTo(event);
    // Doubles bit for bit: the moments are merged again on every replay.
    MetricNoise m = back.measured().metric("metadata_stat");
    assertThat(m.diffs().m2()).isEqualTo(event.measured().metric("metadata_stat").diffs().m2());
    assertThat(m.recent()).containsExactly(0.0123, -0.0045, 0.0071);
    assertThat(back.measured().date()).isEqualTo(LocalDate.of(2026, 12, 3));
  }

  @Test
  void aSnapshotOfTheLedgerReadsBackTheSame() {
    NoiseLedgerState state = NoiseLedgerState.EMPTY
        .apply(new NoiseEvent.NoiseMerged(record("qemu/tcg", 1, 0, 0.01, 0.02)))
        .apply(new NoiseEvent.NoiseMerged(record("sim/sim", 2, 0, 0.03, -0.01)))
        .apply(new NoiseEvent.NoiseMerged(record("qemu/tcg", 1, 1, -0.02, 0.0)));
    NoiseLedgerState back = (NoiseLedgerState) roundTrip(state);
    assertThat(back).isEqualTo(state);
    assertThat(back.records()).containsOnlyKeys("qemu/tcg", "sim/sim");
    assertThat(back.record("qemu/tcg").experiments()).isEqualTo(2);
  }

  @Test
  void repliesToOtherNodesSerializeToo() {
    var records = new NoiseLedger.Records(List.of(record("qemu/tcg", 1, 0, 0.01, 0.02)));
    assertThat(roundTrip(records)).isEqualTo(records);
    var merged = new NoiseLedger.Merged(record("sim/sim", 2, 1, 0.01, -0.02));
    assertThat(roundTrip(merged)).isEqualTo(merged);
    assertThat(roundTrip(new NoiseLedgerState(Map.of()))).isEqualTo(NoiseLedgerState.EMPTY);
  }
}
