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

class BlockExecutorWarmupTest {
  final List<WorkerMessage> sent = new CopyOnWriteArrayList<>();
  final AtomicLong clock = new AtomicLong(1_000_000);

  /** Warm-up boots fail (INFRA, as a broken host would), measured boots report a result. */
  final RunProcedure procedure = (block, run) -> run.getWarmup()
      ? new RunReport.Failed(FailureKind.INFRA, "no qemu", "", RunTelemetry.getDefaultInstance())
      : new RunReport.Measured(List.of(), List.of(), List.of(), 0, RunTelemetry.getDefaultInstance());

  static BlockAssignment blockWithWarmup() {
    return BlockAssignment.newBuilder().setBlockId("b1").setLeaseEpoch(3)
        .addRuns(RunAssignment.newBuilder().setRunId("b1-warmup").setArm("base").setWarmup(true))
        .addRuns(RunAssignment.newBuilder().setRunId("b1-base").setArm("base").setOrderInPair(0))
        .addRuns(RunAssignment.newBuilder().setRunId("b1-cand").setArm("cand").setOrderInPair(1))
        .build();
  }

  void awaitFinished() {
    Eventually.await("block finished", java.time.Duration.ofSeconds(5), () -> sent.stream().anyMatch(WorkerMessage::hasBlockFinished));
  }

  @Test
  void aFailedWarmupBootIsReportedAndTheMeasuredBootsStillRun() throws Exception {
    try (BlockExecutor executor = new BlockExecutor(procedure, sent::add, clock::getAndIncrement)) {
      executor.submit(blockWithWarmup());
      awaitFinished();

      assertThat(sent).filteredOn(WorkerMessage::hasRunFailure)
          .extracting(m -> m.getRunFailure().getRunId()).containsExactly("b1-warmup");
      assertThat(sent).filteredOn(WorkerMessage::hasRunResult)
          .extracting(m -> m.getRunResult().getRunId()).containsExactly("b1-base", "b1-cand");
      assertThat(sent.get(sent.size() - 1).hasBlockFinished()).isTrue();
    }
  }
}
