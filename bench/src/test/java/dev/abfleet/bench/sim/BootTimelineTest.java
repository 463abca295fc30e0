package dev.abfleet.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.sim.SimBootRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootTimelineTest {
  private static final long MS = 1_000_000;

  private static SimBootRecord boot(String host, String runId, long startMs, long endMs) {
    return new SimBootRecord(host, runId, startMs * MS, endMs * MS, endMs - startMs, false, false);
  }

  @Test
  void findsAHostWhoseBootsOverlap() {
    List<SimBootRecord> boots = List.of(
        boot("h1", "e1-p0-a0-base", 0, 10), boot("h1", "e1-p0-a0-cand", 9, 20),
        boot("h2", "e1-p1-a0-base", 0, 10), boot("h2", "e1-p1-a0-cand", 10, 20));

    assertThat(BootTimeline.hostsWithOverlap(boots)).containsExactly("h1");
  }

  @Test
  void sumsRealBootTimes() {
    assertThat(BootTimeline.sumNanos(List.of(boot("h1", "b-x", 0, 10), boot("h2", "c-x", 5, 8)))).isEqualTo(13 * MS);
  }

  @Test
  void listScheduleKeepsBlocksWholeOnTheEarliestFreeHost() {
    // Three blocks of 20, 20 and 10 ms on two hosts: the third block waits for a free host.
    List<SimBootRecord> boots = List.of(
        boot("h1", "a-p0-a0-base", 0, 10), boot("h1", "a-p0-a0-cand", 10, 20),
        boot("h2", "a-p1-a0-base", 1, 11), boot("h2", "a-p1-a0-cand", 11, 21),
        boot("h1", "a-p2-a0-base", 30, 35), boot("h1", "a-p2-a0-cand", 35, 40));

    assertThat(BootTimeline.listScheduleNanos(boots, 2)).isEqualTo(30 * MS);
  }

  @Test
  void splitsIdleGapsAtBlockBoundaries() {
    List<SimBootRecord> boots = List.of(
        boot("h1", "a-p0-a0-base", 0, 10), boot("h1", "a-p0-a0-cand", 12, 20),
        boot("h1", "a-p2-a0-base", 30, 35), boot("h1", "a-p2-a0-cand", 35, 40));

    BootTimeline.Gaps gaps = BootTimeline.gaps(boots);
    assertThat(gaps.withinBlock()).isEqualTo(2);
    assertThat(gaps.withinBlockMs()).isEqualTo(1.0);
    assertThat(gaps.betweenBlocks()).isEqualTo(1);
    assertThat(gaps.betweenBlocksMs()).isEqualTo(10.0);
  }

  @Test
  void spanMeasuresRampUpAndTailFromTheOrigin() {
    List<SimBootRecord> boots = List.of(
        boot("h1", "a-p0-a0-base", 5, 10), boot("h1", "a-p0-a0-cand", 10, 20),
        boot("h2", "a-p1-a0-base", 8, 30));

    assertThat(BootTimeline.span(boots, 2 * MS)).isEqualTo(new BootTimeline.Span(3 * MS, 6 * MS, 28 * MS));
  }
}
