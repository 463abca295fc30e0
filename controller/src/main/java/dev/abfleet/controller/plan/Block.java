package dev.abfleet.controller.plan;

import java.util.List;

/**
 * One boot of each arm, back to back on one host under one lease, in {@code runs} order.
 *
 * @param blockId unique per attempt of a pair
 * @param leaseEpoch epoch of the lease the block runs under
 */
public record Block(
    String blockId,
    String experimentId,
    int pairIndex,
    String hostId,
    long leaseEpoch,
    List<RunPlan> runs) {
  public Block {
    runs = List.copyOf(runs);
  }
}
