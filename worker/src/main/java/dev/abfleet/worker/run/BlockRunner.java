package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;

/**
 * Runs the blocks assigned to one host, one at a time in arrival order, and reports on the
 * worker stream: RunStarted when a run starts, its RunResult or RunFailure, BlockFinished after
 * the block. {@link BlockExecutor} holds a thread per block (real VMs); {@link TimedBlockExecutor}
 * holds none (simulated boots, waited out on a timer).
 */
public interface BlockRunner extends AutoCloseable {
  /** Queues a block; blocks run in arrival order. */
  void submit(BlockAssignment block);

  /** Applies the controller's Cancel: now, or after the boot in progress when it asks so. */
  void cancel(Cancel cancel);

  /** Run id of the boot in progress, or null when idle. */
  String runningRunId();

  @Override
  void close();
}
