package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.nightly.RunRecord;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import org.junit.jupiter.api.Test;

/** Imported runs: a decision is kept as written, read from accepted when absent, refused when it contradicts it. */
class NightlyProtoTest {
  private static final NightlyRun OLD = NightlyRun.newBuilder().setSchedule("night").setDate("2026-03-10T02:30:00Z")
      .setExperimentId("night-20260310T0230Z").setState("completed").setOverall("inconclusive").build();

  @Test
  void aRunWithoutADecisionReadsItFromAccepted() {
    assertThat(NightlyProto.record(OLD.toBuilder().setAccepted(true).build()).decision()).isEqualTo("accepted");
    assertThat(NightlyProto.record(OLD).decision()).as("completed, not regressed, not accepted").isEqualTo("held");
    assertThat(NightlyProto.record(OLD.toBuilder().setOverall("regressed").build()).decision()).isEqualTo("rejected");
  }

  @Test
  void aDecisionGoesToTheWireAndBackUnchanged() {
    NightlyRun held = OLD.toBuilder().setDecision("held").setDecidedBy("gate").setDecisionReason("gate inconclusive")
        .setDecidedAtMs(1_773_109_800_000L).build();
    RunRecord r = NightlyProto.record(held);
    assertThat(r.held()).isTrue();
    assertThat(NightlyProto.run(r)).isEqualTo(held);
  }

  @Test
  void rejectsAnUnknownDecisionAndOneThatContradictsAccepted() {
    assertThatThrownBy(() -> NightlyProto.record(OLD.toBuilder().setDecision("maybe").build()))
        .hasMessage("run night-20260310T0230Z: decision 'maybe'; expected accepted, held or rejected (or none: read"
            + " from accepted)");
    assertThatThrownBy(() -> NightlyProto.record(OLD.toBuilder().setDecision("held").setAccepted(true).build()))
        .hasMessage("run night-20260310T0230Z: decision held with accepted true; accepted is true exactly for"
            + " decision accepted");
  }
}
