package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HarnessParamsTest {

  @Test
  void leavesEveryDefaultToTheHarness() {
    assertThat(HarnessParams.defaults().kernelArgs()).isEmpty();
  }

  @Test
  void spellsEverySetValueAsAnAbfleetKernelParameter() {
    HarnessParams p = new HarnessParams(
        List.of("metadata_stat", "seq_read"), 3, 250, 1, "/dev/hvc0", "/bench/x");

    assertThat(p.kernelArgs()).containsExactly(
        "abfleet.metrics=metadata_stat,seq_read", "abfleet.iterations=3",
        "abfleet.iteration_ms=250", "abfleet.warmup=1", "abfleet.out=/dev/hvc0",
        "abfleet.dir=/bench/x");
  }

  @Test
  void spellsTheTreeSizeAndColdCachesForTheInit() {
    HarnessParams p = new HarnessParams(List.of("rm_rf"), 0, 0, 0, "", "", 500, true);

    assertThat(p.kernelArgs()).containsExactly("abfleet.metrics=rm_rf", "abfleet.files=500",
        "abfleet.cache=cold");
  }

  @Test
  void spellsThreadsAndFileSizesForTheInit() {
    HarnessParams p = HarnessParams.defaults().withLoad(new HarnessParams.Load(4, 64, 4096));

    assertThat(p.kernelArgs()).containsExactly("abfleet.threads=4", "abfleet.seq_size=64",
        "abfleet.file_size=4096");
  }

  @Test
  void leavesZeroThreadsAndSizesToTheHarness() {
    assertThat(HarnessParams.defaults().withLoad(new HarnessParams.Load(0, 0, 0)).kernelArgs()).isEmpty();
  }

  @Test
  void rejectsMoreThreadsThanTheHarnessRuns() {
    assertThatThrownBy(() -> new HarnessParams.Load(257, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threads must be in 0..256").hasMessageContaining("257");
  }

  @Test
  void rejectsAFileSizeAboveSixteenMebibytes() {
    assertThatThrownBy(() -> new HarnessParams.Load(0, 0, 16 * 1024 * 1024 + 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file_size must be in 0..16777216");
  }

  @Test
  void rejectsAMetricNameThatWouldSplitTheCommandLine() {
    assertThatThrownBy(() -> new HarnessParams(List.of("stat init=/bin/sh"), 0, 0, 0, "", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'stat init=/bin/sh'");
  }

  @Test
  void rejectsARelativeOutPath() {
    assertThatThrownBy(() -> new HarnessParams(List.of(), 0, 0, 0, "ttyS1", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tellsInitWhichVolumeToMountAndHow() {
    HarnessParams p = HarnessParams.defaults()
        .withVolume(new HarnessParams.Volume("9p", "abfleet-vol", "trans=virtio,version=9p2000.L,msize=512000"));

    assertThat(p.kernelArgs()).containsExactly("abfleet.volume=9p", "abfleet.volume_tag=abfleet-vol",
        "abfleet.volume_opts=trans=virtio,version=9p2000.L,msize=512000");
  }

  @Test
  void rejectsVolumeOptionsWithASpace() {
    assertThatThrownBy(() -> new HarnessParams.Volume("9p", "abfleet-vol", "cache=loose abfleet.dir=/"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("volume options");
  }
}
