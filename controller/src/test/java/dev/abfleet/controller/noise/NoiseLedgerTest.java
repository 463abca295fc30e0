package dev.abfleet.controller.noise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.stats.noise.NoiseRecord;
import java.time.LocalDate;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NoiseLedgerTest {
  static ActorTestKit kit;
  EventSourcedBehaviorTestKit<NoiseLedger.Command, NoiseEvent, NoiseLedgerState> ledger;

  @BeforeAll
  static void start() {
    kit = TestActorKits.eventSourced();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @BeforeEach
  void fresh() {
    ledger = EventSourcedBehaviorTestKit.create(kit.system(), NoiseLedger.create(0));
  }

  private NoiseRecord merge(NoiseRecord r) {
    var result = ledger.<StatusReply<NoiseLedger.Merged>>runCommand(replyTo -> new NoiseLedger.MergeNoise(r, replyTo));
    return result.reply().getValue().record();
  }

  @Test
  void mergesOfTwoWritersBothCount() {
    NoiseRecord first = NoiseSerializationTest.record("qemu/tcg", 2, 0, 0.01, 0.02, -0.01);
    NoiseRecord second = new NoiseRecord("qemu/tcg", 3, 1, LocalDate.of(2026, 12, 5), List.of("create_delete"),
        NoiseSerializationTest.record("qemu/tcg", 3, 1, 0.03, -0.02).metrics());
    merge(first);
    NoiseRecord merged = merge(second);
    assertThat(merged).isEqualTo(first.merge(second));
    assertThat(merged.experiments()).isEqualTo(5);
    assertThat(merged.falsePositives()).isEqualTo(1);
    assertThat(merged.metric("metadata_stat").pairs()).isEqualTo(5);
    assertThat(merged.date()).isEqualTo(LocalDate.of(2026, 12, 5));
    assertThat(merged.gating()).containsExactly("metadata_stat", "seq_read", "create_delete");
  }

  @Test
  void listsEveryClassSortedAndKeepsThemOverARestart() {
    merge(NoiseSerializationTest.record("sim/sim", 1, 0, 0.01, 0.02));
    merge(NoiseSerializationTest.record("qemu/tcg", 1, 0, 0.01, 0.02));
    ledger.restart();
    var list = ledger.<NoiseLedger.Records>runCommand(NoiseLedger.ListNoise::new).reply();
    assertThat(list.records()).extracting(NoiseRecord::hostClass).containsExactly("qemu/tcg", "sim/sim");
  }

  @Test
  void rejectsMoreFalsePositivesThanExperimentsAndRecordsNothing() {
    NoiseRecord bad = NoiseSerializationTest.record("qemu/tcg", 1, 2, 0.01, 0.02);
    var result = ledger.<StatusReply<NoiseLedger.Merged>>runCommand(replyTo -> new NoiseLedger.MergeNoise(bad, replyTo));
    assertThat(result.reply().isError()).isTrue();
    assertThat(result.reply().getError().getMessage())
        .contains("qemu/tcg", "2 false positives of 1 experiments");
    assertThat(result.hasNoEvents()).isTrue();
  }
}
