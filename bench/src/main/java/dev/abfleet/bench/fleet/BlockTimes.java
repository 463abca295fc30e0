package dev.abfleet.bench.fleet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * What the boots of a fleet run say about its scheduling: the gap between a host finishing a
 * block and starting its next, and the makespan against a list schedule of the same blocks.
 * A block is one lease: the boots of one host under one lease epoch.
 */
public final class BlockTimes {
  /**
   * One boot as the report gives it.
   *
   * @param startedAtMs when the run began, Unix epoch ms (the worker's clock)
   * @param endedAtMs when it ended, Unix epoch ms
   */
  public record Boot(String hostId, long leaseEpoch, long startedAtMs, long endedAtMs) {}

  /** One block: its host and the span from its first boot's start to its last boot's end, ms. */
  public record Block(String hostId, long startMs, long endMs) {
    long lengthMs() {
      return endMs - startMs;
    }
  }

  private BlockTimes() {}

  /** The blocks of {@code boots}, by (host, lease epoch); boots without both times are left out. */
  public static List<Block> blocks(List<Boot> boots) {
    Map<String, long[]> spans = new LinkedHashMap<>();
    Map<String, String> hosts = new LinkedHashMap<>();
    for (Boot b : boots) {
      if (b.startedAtMs() <= 0 || b.endedAtMs() < b.startedAtMs()) {
        continue;
      }
      String key = b.hostId() + "\u0000" + b.leaseEpoch();
      hosts.put(key, b.hostId());
      spans.merge(key, new long[] {b.startedAtMs(), b.endedAtMs()},
          (x, y) -> new long[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])});
    }
    List<Block> out = new ArrayList<>();
    spans.forEach((key, span) -> out.add(new Block(hosts.get(key), span[0], span[1])));
    return out;
  }

  /**
   * For each host, the time from the end of each block to the start of the host's next one, ms,
   * in no particular order. A host's last block has no gap.
   */
  public static long[] gaps(List<Block> blocks) {
    Map<String, List<Block>> byHost = new LinkedHashMap<>();
    blocks.forEach(b -> byHost.computeIfAbsent(b.hostId(), h -> new ArrayList<>()).add(b));
    List<Long> gaps = new ArrayList<>();
    for (List<Block> own : byHost.values()) {
      own.sort(Comparator.comparingLong(Block::startMs));
      for (int i = 1; i < own.size(); i++) {
        gaps.add(own.get(i).startMs() - own.get(i - 1).endMs());
      }
    }
    return gaps.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * The {@code q}-quantile (0..1) of {@code values} by the nearest-rank rule (the smallest value
   * with at least q of them at or below it); NaN when there are none.
   */
  public static double quantile(long[] values, double q) {
    if (values.length == 0) {
      return Double.NaN;
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** From the first block's start to the last block's end, ms; 0 without blocks. */
  public static long makespanMs(List<Block> blocks) {
    if (blocks.isEmpty()) {
      return 0;
    }
    long first = blocks.stream().mapToLong(Block::startMs).min().orElseThrow();
    long last = blocks.stream().mapToLong(Block::endMs).max().orElseThrow();
    return last - first;
  }

  /**
   * The makespan of a list schedule of the same blocks on {@code hosts} hosts, ms: each block, in
   * the order they really started, goes to the host that is free first, with no gap between
   * blocks. What the fleet would take with an instant scheduler and the same work.
   */
  public static long listScheduleMs(List<Block> blocks, int hosts) {
    if (hosts < 1) {
      throw new IllegalArgumentException("hosts " + hosts + ": expected at least 1");
    }
    List<Block> order = new ArrayList<>(blocks);
    order.sort(Comparator.comparingLong(Block::startMs));
    PriorityQueue<Long> free = new PriorityQueue<>();
    for (int i = 0; i < hosts; i++) {
      free.add(0L);
    }
    long end = 0;
    for (Block b : order) {
      long done = free.poll() + b.lengthMs();
      end = Math.max(end, done);
      free.add(done);
    }
    return end;
  }

  /** Real makespan over the list schedule's; NaN without blocks. */
  public static double makespanRatio(List<Block> blocks, int hosts) {
    long bound = listScheduleMs(blocks, hosts);
    return bound == 0 ? Double.NaN : makespanMs(blocks) / (double) bound;
  }
}
