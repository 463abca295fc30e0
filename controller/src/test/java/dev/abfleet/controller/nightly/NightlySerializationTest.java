package dev.abfleet.controller.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Nightly's events, snapshots and replies go through CBOR (the journal, other nodes) unchanged. */
class NightlySerializationTest {
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

  static RunRecord run(String id) {
    return new RunRecord("night", "2026-03-10T02:30:00Z", id, "completed",
        new RunRecord.Artifact("/k/a", "a".repeat(64)), new RunRecord.Artifact("/k/b", "b".repeat(64)),
        List.of(new RunRecord.Metric("metadata_stat", "ops/s", "higher", true, 1000, 990, -0.01, Double.NaN,
            0.01, "no_change")), "no_change", true, "", true);
  }

  @Test
  void eventsKeepEveryFieldIncludingNaNAndMissingKernels() {
    var started = new NightlyEvent.RunStarted("night", "2026-03-10T02:30:00Z", "night-20260310T0230Z",
        new RunRecord.Artifact("/k/a", "a".repeat(64)), new RunRecord.Artifact("/k/b", "b".repeat(64)), true);
    var failed = RunRecord.failed("night", "2026-03-11T02:30:00Z", "night-20260311T0230Z", "no kernel", false);
    for (Object e : List.of(started, new NightlyEvent.RunFinished(run("night-1")),
        new NightlyEvent.RunFinished(failed), new NightlyEvent.RunsImported(List.of(run("x"), run("y"))),
        new NightlyEvent.RunFinished(run("night-2").decided("held", "gate", "gate inconclusive: x", 1_773_109_800_000L)),
        new NightlyEvent.RunDecided("night-2", true, "looked at the boots", 1_773_110_000_000L))) {
      assertThat(roundTrip(e)).isEqualTo(e);
    }
  }

  @Test
  void runsJournalledBeforeDecisionsReadTheirDecisionFromAccepted() throws Exception {
    var cbor = org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider.get(kit.system())
        .getOrCreate("jackson-cbor", java.util.Optional.empty());
    RunRecord accepted = run("night-1");
    RunRecord regressed = new RunRecord("night", "2026-03-11T02:30:00Z", "night-2", "completed", null, null,
        List.of(), "regressed", false, "", false);
    List<String> decisions = new java.util.ArrayList<>();
    for (RunRecord r : List.of(accepted, regressed)) {
      var old = (com.fasterxml.jackson.databind.node.ObjectNode) cbor.valueToTree(r);
      assertThat(old.has("decision")).isTrue();
      old.remove(List.of("decision", "decidedBy", "decisionReason", "decidedAtMs"));
      assertThat(old.has("decision") || old.has("decidedAtMs")).as("as written before decisions existed").isFalse();
      RunRecord back = cbor.treeToValue(old, RunRecord.class);
      assertThat(back.decidedBy()).isEmpty();
      assertThat(back.decidedAtMs()).isZero();
      decisions.add(back.decision());
    }
    assertThat(decisions).containsExactly("accepted", "rejected");
  }

  @Test
  void aSnapshotOfTheStateReadsBackTheSame() {
    NightlyState state = NightlyState.EMPTY
        .apply(new NightlyEvent.RunsImported(List.of(run("night-1"), run("night-2"))))
        .apply(new NightlyEvent.RunStarted("night", "2026-03-12T02:30:00Z", "night-3",
            new RunRecord.Artifact("/k/a", "a".repeat(64)), new RunRecord.Artifact("/k/c", "c".repeat(64)), false));
    NightlyState back = (NightlyState) roundTrip(state);
    assertThat(back).isEqualTo(state);
    assertThat(back.runs("night")).hasSize(2);
    assertThat(back.started()).containsOnlyKeys("night-3");
  }

  @Test
  void repliesToOtherNodesSerializeToo() {
    var views = new Nightly.Schedules(List.of(new Nightly.ScheduleView("night", "30 2 * * *", "UTC",
        "2026-03-12T02:30:00Z", false, run("night-1"), List.of("night-3")),
        new Nightly.ScheduleView("other", "@daily", "UTC", "", true, null, List.of())));
    assertThat(roundTrip(views)).isEqualTo(views);
    assertThat(roundTrip(new Nightly.Imported(2, 1))).isEqualTo(new Nightly.Imported(2, 1));
    assertThat(roundTrip(new Nightly.RunStatus("unknown", null))).isEqualTo(new Nightly.RunStatus("unknown", null));
    var decided = new Nightly.RunDecision("decided", run("night-1").decided("rejected", "operator", "no", 5), "");
    assertThat(roundTrip(decided)).isEqualTo(decided);
    assertThat(roundTrip(new Nightly.RunDecision("unknown", null, "no run x")))
        .isEqualTo(new Nightly.RunDecision("unknown", null, "no run x"));
  }
}
