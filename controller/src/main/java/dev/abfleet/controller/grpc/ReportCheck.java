package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.Fence;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import java.util.Optional;

/**
 * Whether a worker's report may reach its experiment: only for a run of a block this stream was
 * assigned, under that block's lease epoch, from the host the block is leased to. Anything else
 * is refused before the experiment sees it, and counted under the reason returned.
 */
final class ReportCheck {
  /** No block with that id (or not that experiment, or not that run) was assigned here. */
  static final String UNLEASED_BLOCK = "unleased_block";
  /** The block is this stream's, the lease epoch is not the block's. */
  static final String STALE_EPOCH = "stale_epoch";
  /** The report names (or the block is leased to) another host than this stream's. */
  static final String WRONG_HOST = "wrong_host";
  /** Passed here, but the experiment answered REJECTED_STALE (its lease had ended). */
  static final String REJECTED_BY_EXPERIMENT = "rejected_stale";

  private ReportCheck() {}

  /**
   * @param block the block of that id assigned to this stream; null = none
   * @param streamHostId the host id this stream said Hello with
   * @param reportedHostId the host id inside the report's telemetry; empty = not stated
   * @return why the report is refused; empty = it may be forwarded
   */
  static Optional<String> refusal(Block block, String streamHostId, String experimentId,
      String runId, long epoch, String reportedHostId) {
    if (block == null || !block.experimentId().equals(experimentId)
        || block.runs().stream().map(RunPlan::runId).noneMatch(runId::equals)) {
      return Optional.of(UNLEASED_BLOCK);
    }
    if (!block.hostId().equals(streamHostId)
        || (!reportedHostId.isEmpty() && !reportedHostId.equals(streamHostId))) {
      return Optional.of(WRONG_HOST);
    }
    if (!Fence.admits(block.leaseEpoch(), epoch)) {
      return Optional.of(STALE_EPOCH);
    }
    return Optional.empty();
  }
}
