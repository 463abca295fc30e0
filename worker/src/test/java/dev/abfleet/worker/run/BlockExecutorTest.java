package dev.abfleet.worker.run;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BlockExecutorTest {
  final List<WorkerMessage> sent = new CopyOnWriteArrayList<>();
  final CountDownLatch booting = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);

  /** A boot that waits for the test to let it end, then reports a result. */
  final RunProcedure procedure = (block, run) -> {
    booting.countDown();
    release.await();
    return new RunReport.Measured(List.of(), List.of(), List.of(), 0, RunTelemetry.getDefaultInstance());
  };

  static BlockAssignment block(String id, int runs) {
    BlockAssignment.Builder b = BlockAssignment.newBuilder().setBlockId(id).setLeaseEpoch(3);
    for (int i = 0; i < runs; i++) {
      b.addRuns(RunAssignment.newBuilder().setRunId(id + "-r" + i).setOrderInPair(i));
    }
    return b.build();
  }

  List<WorkerMessage.KindCase> kinds() {
    return sent.stream().map(WorkerMessage::getKindCase).toList();
  }

  void awaitFinished() {
    Eventually.await("block finished", java.time.Duration.ofSeconds(2),
        () -> kinds().contains(WorkerMessage.KindCase.BLOCK_FINISHED));
  }

  @Test
  void preemptionFinishesTheBootInProgressAndSkipsTheRest() throws Exception {
    try (BlockExecutor executor = new BlockExecutor(procedure, sent::add)) {
      executor.submit(block("b1", 2));
      assertThat(booting.await(5, TimeUnit.SECONDS)).isTrue();

      executor.cancel(Cancel.newBuilder().setBlockId("b1").setReason("preempted")
          .setAfterCurrentBoot(true).build());
      release.countDown();
      awaitFinished();

      assertThat(kinds()).containsExactly(WorkerMessage.KindCase.RUN_STARTED,
          WorkerMessage.KindCase.RUN_RESULT, WorkerMessage.KindCase.BLOCK_FINISHED);
      assertThat(sent.get(1).getRunResult().getRunId()).isEqualTo("b1-r0");
      assertThat(sent.get(2).getBlockFinished().getLeaseEpoch()).isEqualTo(3);
    }
  }

  @Test
  void hardCancelKillsTheBootReportsNoRunAndFreesTheHost() throws Exception {
    try (BlockExecutor executor = new BlockExecutor(procedure, sent::add)) {
      executor.submit(block("b1", 2));
      assertThat(booting.await(5, TimeUnit.SECONDS)).isTrue();

      executor.cancel(Cancel.newBuilder().setBlockId("b1").setReason("revoked").build());
      awaitFinished();

      assertThat(kinds()).containsExactly(WorkerMessage.KindCase.RUN_STARTED,
          WorkerMessage.KindCase.BLOCK_FINISHED);
    }
  }

  @Test
  void preemptedQueuedBlockBootsNothingAndFinishesAtOnce() throws Exception {
    try (BlockExecutor executor = new BlockExecutor(procedure, sent::add)) {
      executor.submit(block("b1", 1));
      executor.submit(block("b2", 2));
      assertThat(booting.await(5, TimeUnit.SECONDS)).isTrue();

      executor.stopAfterCurrentBoot("b2", "preempted");
      release.countDown();
      Eventually.await("both blocks finished", java.time.Duration.ofSeconds(2),
          () -> sent.stream().filter(WorkerMessage::hasBlockFinished).count() >= 2);

      assertThat(sent).filteredOn(m -> m.hasRunStarted())
          .extracting(m -> m.getRunStarted().getBlockId()).containsExactly("b1");
      assertThat(sent).filteredOn(WorkerMessage::hasBlockFinished)
          .extracting(m -> m.getBlockFinished().getBlockId()).containsExactly("b1", "b2");
    }
  }
}
