package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link BlockExecutor} of a host whose boots are SIMULATED, holding no thread of its own:
 * a run's procedure (plan, console and results files, parser, classifier) runs on {@code work},
 * a pool shared by every simulated host of the process, and returns at once; the boot's
 * simulated duration ({@link BootWait}) is then waited out on {@code timer}, after which the
 * report is sent and the next run starts. Thousands of hosts in one process thus cost a few
 * threads, not one per busy host.
 *
 * <p>Same protocol as {@link BlockExecutor}: RunStarted, the report (started when the run began,
 * ended when its wait ran out), BlockFinished after the last run; blocks one at a time in arrival
 * order. A cancel drops the run in progress (its wait is cut, nothing reported) and the runs not
 * started, and a started block still ends with BlockFinished; a queued block cancelled never
 * starts. A stop after the current boot lets the wait in progress run out and report, then ends
 * the block. The procedure is never interrupted: a cancel arriving while it runs takes effect
 * when it returns, which for a simulated boot is a few milliseconds.
 *
 * <p>Lifecycle of a block: queued, then current; current alternates between "in its procedure"
 * (on {@code work}) and "waiting" (a task on {@code timer}), and ends with BlockFinished.
 */
public final class TimedBlockExecutor implements BlockRunner {
  private static final Logger log = LoggerFactory.getLogger(TimedBlockExecutor.class);

  private final RunProcedure procedure;
  private final Consumer<WorkerMessage> out;
  /** Wall clock in Unix epoch ms, stamped on every report. */
  private final LongSupplier clock;
  private final Executor work;
  private final ScheduledExecutorService timer;
  private final BootWait wait;

  // Guarded by this.
  private final ArrayDeque<Block> queued = new ArrayDeque<>();
  private Block current;
  private boolean closed;
  /**
   * Written under the lock, read without it: the link reads it under its own lock for heartbeats,
   * while this executor sends under its lock.
   */
  private volatile String runningRunId;

  /** A block and where it stands; fields guarded by the executor. */
  private static final class Block {
    final BlockAssignment assignment;
    /** Index of the next run to start. */
    int next;
    boolean cancelled;
    boolean stopAfterBoot;
    /** The timer task that ends the run in its simulated boot; null while not waiting. */
    Future<?> waiting;
    String waitingRunId;

    Block(BlockAssignment assignment) {
      this.assignment = assignment;
    }

    String id() {
      return assignment.getBlockId();
    }
  }

  /**
   * @param work runs the procedures and sends the reports (shared by many hosts; never interrupted here)
   * @param timer waits out the simulated boots (shared)
   * @param wait how long each run's report waits after its procedure returned
   */
  public TimedBlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out, Executor work,
      ScheduledExecutorService timer, BootWait wait) {
    this(procedure, out, System::currentTimeMillis, work, timer, wait);
  }

  /** As above with the wall clock (Unix epoch ms) the reports' start and end times come from. */
  TimedBlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out, LongSupplier clock, Executor work,
      ScheduledExecutorService timer, BootWait wait) {
    this.procedure = procedure;
    this.out = out;
    this.clock = clock;
    this.work = work;
    this.timer = timer;
    this.wait = wait;
  }

  @Override
  public synchronized void submit(BlockAssignment block) {
    if (closed) {
      return;
    }
    queued.add(new Block(block));
    if (current == null) {
      startNextBlock();
    }
  }

  @Override
  public void cancel(Cancel cancel) {
    if (cancel.getAfterCurrentBoot()) {
      stopAfterCurrentBoot(cancel.getBlockId(), cancel.getReason());
    } else {
      cancel(cancel.getBlockId(), cancel.getReason());
    }
  }

  /** As {@link BlockExecutor#stopAfterCurrentBoot}. */
  public synchronized void stopAfterCurrentBoot(String blockId, String reason) {
    Block b = find(blockId);
    if (b != null) {
      log.info("block {} stops after the current boot: {}", blockId, reason);
      b.stopAfterBoot = true;
    }
  }

  /** Cancels the block if it is queued or running; a simulated boot in progress is dropped. */
  public synchronized void cancel(String blockId, String reason) {
    Block b = find(blockId);
    if (b == null) {
      return;
    }
    log.warn("cancelling block {}: {}", blockId, reason);
    if (b != current) {
      queued.remove(b);
      return;
    }
    b.cancelled = true;
    if (b.waiting != null && b.waiting.cancel(false)) {
      String runId = b.waitingRunId;
      b.waiting = null;
      runningRunId = null;
      work.execute(() -> {
        wait.ended(runId, false);
        step(b);
      });
    }
    // Otherwise the block is in its procedure, or its wait just ran out: the step that follows
    // sees the flag.
  }

  @Override
  public String runningRunId() {
    return runningRunId;
  }

  /** Starts the next queued block, if any; caller holds the lock. */
  private void startNextBlock() {
    current = queued.poll();
    if (current != null) {
      Block b = current;
      log.info("block {} (experiment {}, pair {}): {} runs", b.id(), b.assignment.getExperimentId(),
          b.assignment.getPairIndex(), b.assignment.getRunsCount());
      work.execute(() -> step(b));
    }
  }

  /** On {@code work}: starts the block's next run, or ends the block. */
  private void step(Block b) {
    RunAssignment run;
    synchronized (this) {
      if (closed) {
        return;
      }
      if (b.cancelled || b.stopAfterBoot || b.next == b.assignment.getRunsCount()) {
        if (b.next < b.assignment.getRunsCount()) {
          log.info("block {} {} before run {}", b.id(), b.cancelled ? "cancelled" : "preempted",
              b.assignment.getRuns(b.next).getRunId());
        }
        runningRunId = null;
        current = null;
        finish(b);
        return;
      }
      run = b.assignment.getRuns(b.next++);
      runningRunId = run.getRunId();
    }
    if (run.getWarmup()) {
      log.info("block {}: warm-up boot {} (not measured; the block goes on whatever it reports)", b.id(),
          run.getRunId());
    }
    out.accept(BlockExecutor.runStarted(b.assignment, run));
    long startedAt = clock.getAsLong();
    RunReport report;
    try {
      report = procedure.execute(b.assignment, run);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("block {} interrupted during run {}: the work pool is shutting down", b.id(), run.getRunId());
      wait.ended(run.getRunId(), false);
      return;
    } catch (RuntimeException e) {
      log.error("block {}: run {} failed unexpectedly; ending the block", b.id(), run.getRunId(), e);
      wait.ended(run.getRunId(), false);
      cancelCurrent(b);
      return;
    }
    waitOut(b, run, report, startedAt);
  }

  /** Schedules the report of {@code run} for when its simulated boot ends. */
  private void waitOut(Block b, RunAssignment run, RunReport report, long startedAt) {
    long nanos = wait.nanos(run.getRunId());
    synchronized (this) {
      if (!b.cancelled && !closed) {
        b.waitingRunId = run.getRunId();
        b.waiting = timer.schedule(() -> work.execute(() -> report(b, run, report, startedAt)), nanos,
            TimeUnit.NANOSECONDS);
        return;
      }
      runningRunId = null;
    }
    log.warn("block {} cancelled during run {}", b.id(), run.getRunId());
    wait.ended(run.getRunId(), false);
    work.execute(() -> step(b));
  }

  /** On {@code work}: the simulated boot of {@code run} ran out; reports it unless cancelled meanwhile. */
  private void report(Block b, RunAssignment run, RunReport report, long startedAt) {
    boolean cancelled;
    synchronized (this) {
      if (closed) {
        return;
      }
      cancelled = b.cancelled;
      b.waiting = null;
      b.waitingRunId = null;
      runningRunId = null;
    }
    wait.ended(run.getRunId(), !cancelled);
    if (cancelled) {
      log.warn("block {} cancelled during run {}", b.id(), run.getRunId());
    } else {
      out.accept(RunReports.toWire(b.assignment, run, BlockExecutor.stamped(report, startedAt, clock.getAsLong())));
    }
    step(b);
  }

  private void cancelCurrent(Block b) {
    synchronized (this) {
      b.cancelled = true;
      runningRunId = null;
    }
    step(b);
  }

  /** Sends BlockFinished, then starts the next block; caller holds the lock and has cleared {@code current}. */
  private void finish(Block b) {
    out.accept(BlockExecutor.blockFinished(b.assignment));
    startNextBlock();
  }

  private Block find(String blockId) {
    if (current != null && current.id().equals(blockId)) {
      return current;
    }
    return queued.stream().filter(b -> b.id().equals(blockId)).findFirst().orElse(null);
  }

  /** Drops every block: waits are cut, nothing more is sent. The shared pools stay up. */
  @Override
  public synchronized void close() {
    closed = true;
    queued.clear();
    if (current != null && current.waiting != null && current.waiting.cancel(false)) {
      wait.ended(current.waitingRunId, false);
    }
    current = null;
    runningRunId = null;
  }
}
