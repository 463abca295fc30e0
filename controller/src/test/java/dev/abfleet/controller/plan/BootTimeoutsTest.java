package dev.abfleet.controller.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The boot timeout rule; each expected value is worked out by hand in the comment above it. */
class BootTimeoutsTest {
  static final List<String> SIX = List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read",
      "find_recursive", "rm_rf");

  static BenchmarkSpec hostVolume(List<String> metrics, int iterations, int iterationMs, int warmup, int files) {
    return new BenchmarkSpec("", metrics, iterations, iterationMs, warmup, BenchmarkSpec.VOLUME_HOST, files, "warm");
  }

  @Test
  void aSmallGuestBenchmarkKeepsTheDefault() {
    // (30 s + 2 metrics x 3 iterations x 100 ms) x 2 = 61.2 s, below the floor of 180 s.
    BenchmarkSpec b = new BenchmarkSpec("", List.of("metadata_stat", "seq_read"), 3, 100, 0);
    assertThat(BootTimeouts.estimateS(b, 1)).isEqualTo(180);
  }

  @Test
  void twoThousandFilesOverAHostVolumeNeedMoreThanTheDefault() {
    // The A/A: six metrics, harness defaults (5 iterations of 200 ms, 2,000 files), 2 vCPUs.
    // measured 6 x 5 x 200 ms = 6,000 ms; trees 2 metrics x 5 x 2,000 files x 5 ms = 100,000 ms;
    // seq_read 2 threads x 16 MiB x 20 ms = 640 ms; (30 s + 106.64 s) x 2 = 273.28 -> 274 s.
    assertThat(BootTimeouts.estimateS(hostVolume(List.of(), 0, 0, 0, 0), 2)).isEqualTo(274);
    assertThat(BootTimeouts.estimateS(hostVolume(SIX, 0, 0, 0, 0), 2)).isEqualTo(274);
  }

  @Test
  void warmupIterationsAndFilesScaleTheTreeMetrics() {
    // rm_rf alone, 10 + 1 warm-up iterations of 500 ms, 1,000 files: measured 11 x 500 = 5,500 ms;
    // tree 11 x 1,000 x 5 ms = 55,000 ms; (30 + 60.5) x 2 = 181 s.
    assertThat(BootTimeouts.estimateS(hostVolume(List.of("rm_rf"), 10, 500, 1, 1000), 1)).isEqualTo(181);
  }

  @Test
  void theSameTreeOnTheGuestsTmpfsAddsNoFileAllowance() {
    // (30 + 6 x 5 x 200 ms) x 2 = 72 s -> the floor of 180 s.
    BenchmarkSpec b = new BenchmarkSpec("", SIX, 0, 0, 0, BenchmarkSpec.VOLUME_GUEST, 20_000, "warm");
    assertThat(BootTimeouts.estimateS(b, 2)).isEqualTo(180);
  }

  @Test
  void seqReadThreadsScaleTheDataWrittenToAHostVolume() {
    // 8 threads x 64 MiB x 20 ms = 10,240 ms; measured 5 x 200 = 1,000 ms; (30 + 11.24) x 2 = 82.48
    // -> the floor of 180 s; with 64 threads: 81,920 + 1,000 ms -> (30 + 82.92) x 2 = 225.84 -> 226 s.
    BenchmarkSpec eight = new BenchmarkSpec("", List.of("seq_read"), 0, 0, 0, BenchmarkSpec.VOLUME_HOST, 0, "warm",
        null, new BenchmarkSpec.Load(8, 64, 0));
    BenchmarkSpec many = new BenchmarkSpec("", List.of("seq_read"), 0, 0, 0, BenchmarkSpec.VOLUME_HOST, 0, "warm",
        null, new BenchmarkSpec.Load(64, 64, 0));
    assertThat(BootTimeouts.estimateS(eight, 2)).isEqualTo(180);
    assertThat(BootTimeouts.estimateS(many, 2)).isEqualTo(226);
  }

  @Test
  void aWorkloadGetsItsOwnLimitPlusTheBootMargin() {
    BenchmarkSpec b = new BenchmarkSpec("", List.of(), 0, 0, 0, "guest", 0, "warm",
        new WorkloadSpec(new ArtifactRef("e".repeat(64), "/w.cpio.gz", 10), "sh run.sh", "jsonl", 300));
    assertThat(BootTimeouts.estimateS(b, 1)).isEqualTo(300 + WorkloadSpec.BOOT_MARGIN_S);
  }

  @Test
  void fewerThanThreeCompletedBootsLeaveTheEstimate() {
    BootTimeouts.Limit limit = BootTimeouts.limit(0, hostVolume(SIX, 0, 0, 0, 0), 2, List.of(400_000L, 500_000L));
    assertThat(limit).isEqualTo(new BootTimeouts.Limit(274, true, 274, 0, 0));
    assertThat(limit.text()).isEqualTo("adaptive 274 s (benchmark estimate)");
  }

  @Test
  void threeTimesTheMedianOfCompletedBootsOnceThereAreThree() {
    // Sorted 98, 104, 110, 116 s: median (104 + 110) / 2 = 107 s; 3 x 107 = 321 s > estimate 180 s.
    BenchmarkSpec b = new BenchmarkSpec("", List.of("metadata_stat"), 0, 0, 0);
    BootTimeouts.Limit limit = BootTimeouts.limit(0, b, 2, List.of(116_000L, 98_000L, 110_000L, 104_000L));
    assertThat(limit).isEqualTo(new BootTimeouts.Limit(321, true, 180, 4, 107));
    assertThat(limit.text()).isEqualTo("adaptive 321 s (3 x median 107 s of 4 boots)");
  }

  @Test
  void fastBootsNeverLowerTheEstimate() {
    // 3 x median 20 s = 60 s < estimate 274 s.
    BootTimeouts.Limit limit = BootTimeouts.limit(0, hostVolume(SIX, 0, 0, 0, 0), 2, List.of(20_000L, 20_000L, 20_000L));
    assertThat(limit.seconds()).isEqualTo(274);
    assertThat(limit.text()).isEqualTo("adaptive 274 s (benchmark estimate)");
  }

  @Test
  void bootsWithoutARunTimeDoNotCount() {
    BenchmarkSpec b = new BenchmarkSpec("", List.of("metadata_stat"), 0, 0, 0);
    // Two boots with a run time are too few: the estimate (the floor) stands, not 3 x 200 s.
    assertThat(BootTimeouts.limit(0, b, 1, List.of(0L, 0L, 200_000L, 200_000L)).seconds()).isEqualTo(180);
  }

  @Test
  void theObservedPartStopsAtThirtyMinutes() {
    // 3 x 900 s = 2,700 s -> 1,800 s.
    BenchmarkSpec b = new BenchmarkSpec("", List.of("metadata_stat"), 0, 0, 0);
    BootTimeouts.Limit limit = BootTimeouts.limit(0, b, 1, List.of(900_000L, 900_000L, 900_000L));
    assertThat(limit.seconds()).isEqualTo(1800);
    assertThat(limit.why()).isEqualTo("3 x median 900 s of 3 boots, capped at 1800 s");
  }

  @Test
  void anEstimateAboveTheCapIsKept() {
    // Workload 3,600 s + 120 s margin = 3,720 s; 3 x 1,000 s = 3,000 s capped at 1,800 s.
    BenchmarkSpec b = new BenchmarkSpec("", List.of(), 0, 0, 0, "guest", 0, "warm",
        new WorkloadSpec(new ArtifactRef("e".repeat(64), "/w.cpio.gz", 10), "sh run.sh", "jsonl", 3600));
    assertThat(BootTimeouts.limit(0, b, 1, List.of(1_000_000L, 1_000_000L, 1_000_000L)).seconds()).isEqualTo(3720);
  }

  @Test
  void aTimeoutTheUserSetIsUsedAsGiven() {
    BootTimeouts.Limit limit = BootTimeouts.limit(90, hostVolume(SIX, 0, 0, 0, 0), 2,
        List.of(200_000L, 200_000L, 200_000L));
    assertThat(limit).isEqualTo(BootTimeouts.Limit.fixed(90));
    assertThat(limit.text()).isEqualTo("fixed 90 s");
  }

  @Test
  void aFixedTimeoutBelowAWorkloadsOwnLimitIsRaisedAboveIt() {
    // Workload 300 s + 120 s margin = 420 s > the user's 150 s: the guest's own limit fires first.
    BenchmarkSpec b = new BenchmarkSpec("", List.of(), 0, 0, 0, "guest", 0, "warm",
        new WorkloadSpec(new ArtifactRef("e".repeat(64), "/w.cpio.gz", 10), "sh run.sh", "jsonl", 300));
    assertThat(BootTimeouts.limit(150, b, 1, List.of())).isEqualTo(BootTimeouts.Limit.fixed(420));
  }
}
