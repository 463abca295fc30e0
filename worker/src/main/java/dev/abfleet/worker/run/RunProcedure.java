package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;

/** One boot, from staging to report. Returns a RunResult or a RunFailure message. */
@FunctionalInterface
public interface RunProcedure {
  WorkerMessage execute(BlockAssignment block, RunAssignment run) throws InterruptedException;
}
