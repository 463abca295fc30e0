package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.RunAssignment;

/**
 * One boot, from staging to report: stage, boot, judge. Business failures (the run cannot boot
 * here, the kernel hung, the harness failed) are a {@link RunReport.Failed}, never an exception.
 */
@FunctionalInterface
public interface RunProcedure {
  /** @throws InterruptedException the block was cancelled: the VM was killed and nothing is reported */
  RunReport execute(BlockAssignment block, RunAssignment run) throws InterruptedException;
}
