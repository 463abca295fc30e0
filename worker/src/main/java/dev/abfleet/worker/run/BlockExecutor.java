package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunStarted;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.host.HostSampler;
import dev.abfleet.worker.host.HostWindow;
import dev.abfleet.worker.host.QuietThreshold;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs assigned blocks one at a time on a single thread: one VM at a time on this host. Each
 * run of a block boots back to back in the assigned order; every run ends with a RunResult or
 * a RunFailure, then the block ends with BlockFinished. A cancel interrupts the block, which
 * kills its VM; the boot killed and the runs not yet started are not reported, and a block that
 * had started still ends with BlockFinished so the controller knows the host is free (for a
 * revoked lease it is stale and ignored; an incomplete block is abandoned). A cancel
 * "after the current boot" (preemption) lets the boot in progress finish and report, skips the
 * runs after it and ends the block with BlockFinished, so the controller can give the host to
 * a higher-priority experiment at a boot boundary. A warm-up run (RunAssignment.warmup) is
 * run and reported like any other; whatever it reports, the block goes on to its measured runs.
 * Every report carries the run's start and end wall times (RunTelemetry.started_at_ms,
 * ended_at_ms) and, on a real host, the host's pressure and facts over that window
 * (RunTelemetry.host_pressure, host_facts, interfered). Before a measured boot whose experiment
 * sets a quiet-host policy (RunAssignment.host_quiet) it first waits, bounded, for the host's CPU
 * pressure to fall to the threshold (RunTelemetry.quiet_wait_ms). For hosts whose boots are simulated,
 * {@link TimedBlockExecutor} does the same without a thread of its own (and samples no host).
 */
public final class BlockExecutor implements BlockRunner {
  private static final Logger log = LoggerFactory.getLogger(BlockExecutor.class);

  private final RunProcedure procedure;
  private final Consumer<WorkerMessage> out;
  /** Wall clock in Unix epoch ms, stamped on every report. */
  private final LongSupplier clock;
  /** Samples the host around each boot; {@link HostSampler#NONE} samples nothing (tests). */
  private final HostSampler host;
  // One thread, started for a block and ended after a minute idle: an idle worker holds none.
  private final ExecutorService thread = idleEnding();
  private final AtomicReference<String> runningRunId = new AtomicReference<>();
  private final Map<String, Future<?>> blocks = new ConcurrentHashMap<>();
  /** Blocks to end at the next boot boundary. */
  private final Set<String> stopAfterBoot = ConcurrentHashMap.newKeySet();

  private static ExecutorService idleEnding() {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "abfleet-block-executor");
      t.setDaemon(true);
      return t;
    });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** An executor whose reports carry no host pressure. */
  public BlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out) {
    this(procedure, out, HostSampler.NONE);
  }

  /** An executor whose reports carry what {@code host} samples around each boot. */
  public BlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out, HostSampler host) {
    this(procedure, out, System::currentTimeMillis, host);
  }

  /** As above with the wall clock (Unix epoch ms) the reports' start and end times come from. */
  BlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out, LongSupplier clock) {
    this(procedure, out, clock, HostSampler.NONE);
  }

  BlockExecutor(RunProcedure procedure, Consumer<WorkerMessage> out, LongSupplier clock, HostSampler host) {
    this.procedure = procedure;
    this.out = out;
    this.clock = clock;
    this.host = host;
  }

  @Override
  public void submit(BlockAssignment block) {
    FutureTask<Void> task = new FutureTask<>(() -> {
      try {
        run(block);
      } finally {
        blocks.remove(block.getBlockId());
        stopAfterBoot.remove(block.getBlockId());
      }
    }, null);
    blocks.put(block.getBlockId(), task);
    thread.execute(task);
  }

  @Override
  public void cancel(Cancel cancel) {
    if (cancel.getAfterCurrentBoot()) {
      stopAfterCurrentBoot(cancel.getBlockId(), cancel.getReason());
    } else {
      cancel(cancel.getBlockId(), cancel.getReason());
    }
  }

  /**
   * Ends the block at the next boot boundary: the boot in progress (if any) is reported, the
   * rest is skipped, BlockFinished follows. A block not started yet runs no boot at all.
   */
  public void stopAfterCurrentBoot(String blockId, String reason) {
    if (blocks.containsKey(blockId)) {
      log.info("block {} stops after the current boot: {}", blockId, reason);
      stopAfterBoot.add(blockId);
    }
  }

  /** Cancels the block if it is queued or running; its VM is killed. */
  public void cancel(String blockId, String reason) {
    Future<?> f = blocks.get(blockId);
    if (f != null) {
      log.warn("cancelling block {}: {}", blockId, reason);
      f.cancel(true);
    }
  }

  /** Run id of the VM booting now, or null when idle. */
  @Override
  public String runningRunId() {
    return runningRunId.get();
  }

  private void run(BlockAssignment block) {
    log.info("block {} (experiment {}, pair {}): {} runs",
        block.getBlockId(), block.getExperimentId(), block.getPairIndex(), block.getRunsCount());
    for (RunAssignment run : block.getRunsList()) {
      if (Thread.currentThread().isInterrupted()) {
        log.warn("block {} cancelled before run {}", block.getBlockId(), run.getRunId());
        break;
      }
      if (stopAfterBoot.contains(block.getBlockId())) {
        log.info("block {} preempted before run {}", block.getBlockId(), run.getRunId());
        break;
      }
      runningRunId.set(run.getRunId());
      if (run.getWarmup()) {
        log.info("block {}: warm-up boot {} (not measured; the block goes on whatever it reports)",
            block.getBlockId(), run.getRunId());
      }
      try {
        out.accept(WorkerMessage.newBuilder()
            .setRunStarted(RunStarted.newBuilder()
                .setRunId(run.getRunId())
                .setBlockId(block.getBlockId())
                .setLeaseEpoch(block.getLeaseEpoch()))
            .build());
        QuietThreshold quiet = QuietThreshold.forRun(run, host.quiet());
        long waitedMs = awaitQuiet(block, run, quiet);
        long startedAt = clock.getAsLong();
        HostWindow window = host.begin();
        RunReport report = procedure.execute(block, run);
        if (Thread.currentThread().isInterrupted()) {
          log.warn("block {} cancelled during run {}", block.getBlockId(), run.getRunId());
          break;
        }
        out.accept(RunReports.toWire(block, run,
            window.end(stamped(report, startedAt, clock.getAsLong()), quiet, waitedMs)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        log.warn("block {} interrupted during run {}", block.getBlockId(), run.getRunId());
        break;
      } finally {
        runningRunId.set(null);
      }
    }
    out.accept(blockFinished(block));
  }

  /**
   * Before a measured boot: waits, bounded by the experiment's max_wait_s, for the host's CPU
   * pressure to fall to the threshold; returns the ms waited (RunTelemetry.quiet_wait_ms).
   */
  private long awaitQuiet(BlockAssignment block, RunAssignment run, QuietThreshold quiet)
      throws InterruptedException {
    long max = QuietThreshold.maxWaitMs(run);
    if (max == 0) {
      return 0;
    }
    long waited = host.awaitQuiet(quiet.cpuSomePct(), max);
    if (waited > 0) {
      log.info("block {}: run {} waited {} ms for host cpu pressure to fall to {}%{}",
          block.getBlockId(), run.getRunId(), waited, quiet.cpuSomePct(),
          waited >= max ? " (gave up; the run's window decides whether it was interfered)" : "");
    }
    return waited;
  }

  static WorkerMessage runStarted(BlockAssignment block, RunAssignment run) {
    return WorkerMessage.newBuilder()
        .setRunStarted(RunStarted.newBuilder()
            .setRunId(run.getRunId())
            .setBlockId(block.getBlockId())
            .setLeaseEpoch(block.getLeaseEpoch()))
        .build();
  }

  static WorkerMessage blockFinished(BlockAssignment block) {
    return WorkerMessage.newBuilder()
        .setBlockFinished(BlockFinished.newBuilder()
            .setBlockId(block.getBlockId())
            .setLeaseEpoch(block.getLeaseEpoch()))
        .build();
  }

  /** The report with the run's start and end wall times, unless the procedure set them. */
  static RunReport stamped(RunReport report, long startedAt, long endedAt) {
    RunTelemetry.Builder t = report.telemetry().toBuilder();
    if (t.getStartedAtMs() == 0) {
      t.setStartedAtMs(startedAt);
    }
    if (t.getEndedAtMs() == 0) {
      t.setEndedAtMs(endedAt);
    }
    return report.withTelemetry(t.build());
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
