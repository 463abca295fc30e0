package dev.abfleet.bench.sim;

import dev.abfleet.worker.sim.SimBootRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/** Figures over the simulated boots of one benchmark run, from their real start and end times. */
public final class BootTimeline {
  private BootTimeline() {}

  /** Mean real idle time of a host between consecutive boots, split by whether a block boundary lies between. */
  public record Gaps(double withinBlockMs, int withinBlock, double betweenBlocksMs, int betweenBlocks) {}

  /**
   * When hosts got going and when the last boot ended, in nanoseconds after {@code originNanos}.
   *
   * @param firstStart the first boot's start
   * @param allHostsStarted when the last host that ran any boot started its first one
   * @param lastEnd the last boot's end
   */
  public record Span(long firstStart, long allHostsStarted, long lastEnd) {}

  public static Span span(List<SimBootRecord> boots, long originNanos) {
    if (boots.isEmpty()) {
      return new Span(0, 0, 0);
    }
    long first = boots.stream().mapToLong(SimBootRecord::startNanos).min().orElseThrow();
    long allStarted = byHost(boots).values().stream().mapToLong(l -> l.get(0).startNanos()).max().orElseThrow();
    long lastEnd = boots.stream().mapToLong(SimBootRecord::endNanos).max().orElseThrow();
    return new Span(first - originNanos, allStarted - originNanos, lastEnd - originNanos);
  }

  public static long sumNanos(List<SimBootRecord> boots) {
    return boots.stream().mapToLong(SimBootRecord::wallNanos).sum();
  }

  /** Hosts on which one boot started before the previous one ended, sorted. */
  public static List<String> hostsWithOverlap(List<SimBootRecord> boots) {
    TreeSet<String> hosts = new TreeSet<>();
    byHost(boots).forEach((host, list) -> {
      for (int i = 1; i < list.size(); i++) {
        if (list.get(i).startNanos() < list.get(i - 1).endNanos()) {
          hosts.add(host);
        }
      }
    });
    return List.copyOf(hosts);
  }

  /**
   * The makespan of the same blocks (same real durations, same start order) placed by a greedy
   * list scheduler on {@code hosts} hosts with zero overhead: what a perfect controller would
   * reach without knowing block lengths in advance. Unlike total / hosts, it counts that blocks
   * are indivisible.
   */
  public static long listScheduleNanos(List<SimBootRecord> boots, int hosts) {
    Map<String, long[]> blocks = new LinkedHashMap<>();
    boots.stream().sorted(Comparator.comparingLong(SimBootRecord::startNanos)).forEach(b -> {
      long[] startAndLength = blocks.computeIfAbsent(b.hostId() + "/" + blockOf(b.runId()),
          k -> new long[] {b.startNanos(), 0});
      startAndLength[1] += b.wallNanos();
    });
    PriorityQueue<Long> free = new PriorityQueue<>();
    for (int i = 0; i < hosts; i++) {
      free.add(0L);
    }
    long makespan = 0;
    for (long[] block : blocks.values()) {
      long end = free.poll() + block[1];
      makespan = Math.max(makespan, end);
      free.add(end);
    }
    return makespan;
  }

  public static Gaps gaps(List<SimBootRecord> boots) {
    double within = 0;
    double between = 0;
    int nWithin = 0;
    int nBetween = 0;
    for (List<SimBootRecord> list : byHost(boots).values()) {
      for (int i = 1; i < list.size(); i++) {
        double gapMs = (list.get(i).startNanos() - list.get(i - 1).endNanos()) / 1e6;
        if (blockOf(list.get(i).runId()).equals(blockOf(list.get(i - 1).runId()))) {
          within += gapMs;
          nWithin++;
        } else {
          between += gapMs;
          nBetween++;
        }
      }
    }
    return new Gaps(nWithin == 0 ? 0 : within / nWithin, nWithin, nBetween == 0 ? 0 : between / nBetween, nBetween);
  }

  /** The block id of a run id: the controller names runs {@code <block id>-<arm>}. */
  public static String blockOf(String runId) {
    int dash = runId.lastIndexOf('-');
    return dash < 0 ? runId : runId.substring(0, dash);
  }

  private static Map<String, List<SimBootRecord>> byHost(List<SimBootRecord> boots) {
    Map<String, List<SimBootRecord>> byHost = new LinkedHashMap<>();
    for (SimBootRecord b : boots) {
      byHost.computeIfAbsent(b.hostId(), h -> new ArrayList<>()).add(b);
    }
    byHost.values().forEach(l -> l.sort(Comparator.comparingLong(SimBootRecord::startNanos)));
    return byHost;
  }
}
