package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerMessage.KindCase;
import dev.abfleet.testkit.Eventually;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The timer path: every simulated boot waits an hour on a real scheduler, and the test makes the
 * waits run out by firing the scheduled tasks itself, so each step is deterministic.
 */
class TimedBlockExecutorTest {
  static final Duration LIMIT = Duration.ofSeconds(5);

  final List<WorkerMessage> sent = new CopyOnWriteArrayList<>();
  final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
  /** One thread for every executor of a test: a host in its wait must not hold it. */
  final ExecutorService work = Executors.newSingleThreadExecutor();
  final AtomicLong clockMs = new AtomicLong(1_000);
  final Waits waits = new Waits();

  /** An hour per boot; remembers how each wait ended. */
  static final class Waits implements BootWait {
    final Map<String, Boolean> ended = new ConcurrentHashMap<>();

    @Override
    public long nanos(String runId) {
      return TimeUnit.HOURS.toNanos(1);
    }

    @Override
    public void ended(String runId, boolean reported) {
      Boolean before = ended.putIfAbsent(runId, reported);
      assertThat(before).as("wait of %s ended twice", runId).isNull();
    }
  }

  /** A simulated boot: returns at once with a result. */
  final RunProcedure instant = (block, run) -> new RunReport.Measured(List.of(), List.of(), List.of(), 0,
      RunTelemetry.getDefaultInstance());

  {
    timer.setRemoveOnCancelPolicy(true);
  }

  @AfterEach
  void stop() {
    timer.shutdownNow();
    work.shutdownNow();
  }

  TimedBlockExecutor executor(RunProcedure procedure) {
    return new TimedBlockExecutor(procedure, sent::add, clockMs::get, work, timer, waits);
  }

  List<KindCase> kinds() {
    return sent.stream().map(WorkerMessage::getKindCase).toList();
  }

  void awaitKinds(KindCase... expected) {
    Eventually.until("messages " + List.of(expected), LIMIT, this::kinds, k -> k.equals(List.of(expected)));
  }

  /** Waits until {@code n} simulated boots wait on the timer, then makes one of them run out. */
  void endOneWait(int n) {
    Eventually.await(n + " boots waiting", LIMIT, () -> timer.getQueue().size() == n);
    Runnable due = timer.getQueue().peek(); // poll() would return only tasks already due
    assertThat(timer.remove(due)).isTrue();
    due.run();
  }

  static BlockAssignment block(String id, int runs) {
    return BlockExecutorTest.block(id, runs);
  }

  @Test
  void reportsEachRunWhenItsWaitRunsOutThenFinishes() {
    try (TimedBlockExecutor executor = executor(instant)) {
      executor.submit(block("b1", 2));
      awaitKinds(KindCase.RUN_STARTED);
      assertThat(executor.runningRunId()).isEqualTo("b1-r0");

      clockMs.set(61_000);
      endOneWait(1);
      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.RUN_STARTED);
      endOneWait(1);
      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.RUN_STARTED, KindCase.RUN_RESULT,
          KindCase.BLOCK_FINISHED);

      RunTelemetry first = sent.get(1).getRunResult().getTelemetry();
      assertThat(first.getStartedAtMs()).isEqualTo(1_000);
      assertThat(first.getEndedAtMs()).isEqualTo(61_000);
      assertThat(waits.ended).containsEntry("b1-r0", true).containsEntry("b1-r1", true);
      assertThat(executor.runningRunId()).isNull();
    }
  }

  @Test
  void hostsWaitingOutTheirBootsHoldNoThread() {
    try (TimedBlockExecutor a = executor(instant); TimedBlockExecutor b = executor(instant)) {
      a.submit(block("a1", 1));
      b.submit(block("b1", 1));

      Eventually.await("both hosts booting on one work thread", LIMIT,
          () -> "a1-r0".equals(a.runningRunId()) && "b1-r0".equals(b.runningRunId()));
      assertThat(timer.getQueue()).hasSize(2);
    }
  }

  @Test
  void cancelDuringTheWaitDropsTheRunAndFinishesTheBlock() {
    try (TimedBlockExecutor executor = executor(instant)) {
      executor.submit(block("b1", 3));
      awaitKinds(KindCase.RUN_STARTED);
      Eventually.await("boot waiting", LIMIT, () -> timer.getQueue().size() == 1);

      executor.cancel(Cancel.newBuilder().setBlockId("b1").setReason("lease revoked").build());

      awaitKinds(KindCase.RUN_STARTED, KindCase.BLOCK_FINISHED);
      assertThat(waits.ended).containsExactly(Map.entry("b1-r0", false));
      assertThat(executor.runningRunId()).isNull();
      assertThat(timer.getQueue()).isEmpty();
    }
  }

  @Test
  void cancelWhileTheProcedureRunsDropsItsReport() throws Exception {
    CountDownLatch inProcedure = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    RunProcedure held = (block, run) -> {
      inProcedure.countDown();
      release.await();
      return instant.execute(block, run);
    };
    try (TimedBlockExecutor executor = executor(held)) {
      executor.submit(block("b1", 2));
      assertThat(inProcedure.await(5, TimeUnit.SECONDS)).isTrue();

      executor.cancel("b1", "lease revoked");
      release.countDown();

      awaitKinds(KindCase.RUN_STARTED, KindCase.BLOCK_FINISHED);
      assertThat(waits.ended).containsExactly(Map.entry("b1-r0", false));
      assertThat(timer.getQueue()).isEmpty();
    }
  }

  @Test
  void stopAfterTheCurrentBootReportsItAndSkipsTheRest() {
    try (TimedBlockExecutor executor = executor(instant)) {
      executor.submit(block("b1", 3));
      awaitKinds(KindCase.RUN_STARTED);

      executor.cancel(Cancel.newBuilder().setBlockId("b1").setReason("preempted").setAfterCurrentBoot(true).build());
      endOneWait(1);

      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED);
      assertThat(sent.get(1).getRunResult().getRunId()).isEqualTo("b1-r0");
    }
  }

  @Test
  void blocksOfOneHostRunOneAtATimeInArrivalOrder() {
    try (TimedBlockExecutor executor = executor(instant)) {
      executor.submit(block("b1", 1));
      executor.submit(block("b2", 1));
      awaitKinds(KindCase.RUN_STARTED);

      endOneWait(1);
      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED, KindCase.RUN_STARTED);
      endOneWait(1);
      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED, KindCase.RUN_STARTED,
          KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED);

      assertThat(sent).filteredOn(WorkerMessage::hasBlockFinished)
          .extracting(m -> m.getBlockFinished().getBlockId()).containsExactly("b1", "b2");
      assertThat(sent.get(3).getRunStarted().getRunId()).isEqualTo("b2-r0");
    }
  }

  @Test
  void aQueuedBlockCancelledNeverStarts() {
    try (TimedBlockExecutor executor = executor(instant)) {
      executor.submit(block("b1", 1));
      executor.submit(block("b2", 1));
      awaitKinds(KindCase.RUN_STARTED);

      executor.cancel("b2", "lease revoked");
      endOneWait(1);

      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED);
      executor.submit(block("b3", 1));

      awaitKinds(KindCase.RUN_STARTED, KindCase.RUN_RESULT, KindCase.BLOCK_FINISHED, KindCase.RUN_STARTED);
      assertThat(sent.get(3).getRunStarted().getRunId()).isEqualTo("b3-r0");
    }
  }
}
