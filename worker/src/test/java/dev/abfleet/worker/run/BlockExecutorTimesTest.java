package dev.abfleet.worker.run;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** RunTelemetry.started_at_ms / ended_at_ms on every report. */
class BlockExecutorTimesTest {
  final List<WorkerMessage> sent = new CopyOnWriteArrayList<>();

  /** The first run fails, the others report a result. */
  final RunProcedure procedure = (block, run) -> run.getOrderInPair() == 0
      ? new RunReport.Failed(FailureKind.BOOT, "", "", RunTelemetry.getDefaultInstance())
      : new RunReport.Measured(List.of(), List.of(), List.of(), 0, RunTelemetry.getDefaultInstance());

  static BlockAssignment threeRuns() {
    BlockAssignment.Builder b = BlockAssignment.newBuilder().setBlockId("b1").setLeaseEpoch(3);
    for (int i = 0; i < 3; i++) {
      b.addRuns(RunAssignment.newBuilder().setRunId("b1-r" + i).setOrderInPair(i));
    }
    return b.build();
  }

  void awaitFinished() {
    Eventually.await("block finished", java.time.Duration.ofSeconds(5), () -> sent.stream().anyMatch(WorkerMessage::hasBlockFinished));
  }

  @Test
  void everyReportCarriesTheRunsStartAndEndWallTimes() throws Exception {
    AtomicLong ms = new AtomicLong(5_000);
    try (BlockExecutor executor = new BlockExecutor(procedure, sent::add, () -> ms.getAndAdd(700))) {
      executor.submit(threeRuns());
      awaitFinished();

      List<RunTelemetry> t = sent.stream().filter(m -> m.hasRunResult() || m.hasRunFailure())
          .map(m -> m.hasRunResult() ? m.getRunResult().getTelemetry() : m.getRunFailure().getTelemetry())
          .toList();
      assertThat(t).extracting(RunTelemetry::getStartedAtMs).containsExactly(5_000L, 6_400L, 7_800L);
      assertThat(t).extracting(RunTelemetry::getEndedAtMs).containsExactly(5_700L, 7_100L, 8_500L);
    }
  }

  @Test
  void timesTheProcedureSetItselfAreKept() {
    RunReport report = new RunReport.Measured(List.of(), List.of(), List.of(), 0,
        RunTelemetry.newBuilder().setStartedAtMs(42).setEndedAtMs(43).build());

    RunReport stamped = BlockExecutor.stamped(report, 1_000, 2_000);

    assertThat(stamped.telemetry().getStartedAtMs()).isEqualTo(42);
    assertThat(stamped.telemetry().getEndedAtMs()).isEqualTo(43);
  }
}
