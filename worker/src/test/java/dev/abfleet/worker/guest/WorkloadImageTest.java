package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.compress.archivers.cpio.CpioConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadImageTest {
  @TempDir Path cache;

  @Test
  void theSettingsLayerHoldsTheCommandAsGivenAndTheTimeout() throws Exception {
    String run = "sh /workload/run.sh --name 'a b' \"$HOME\"";

    Path layer = WorkloadImage.runLayer(cache, run, 300);

    var entries = WorkloadPackTest.entries(layer);
    assertThat(entries.keySet()).containsExactly("workload", "workload/.abfleet", "workload/.abfleet/run",
        "workload/.abfleet/timeout_s");
    assertThat(entries.get("workload/.abfleet/run").getMode()).isEqualTo(CpioConstants.C_ISREG | 0644);
    assertThat(WorkloadPackTest.contents(layer, "workload/.abfleet/run")).isEqualTo(run);
    assertThat(WorkloadPackTest.contents(layer, "workload/.abfleet/timeout_s")).isEqualTo("300\n");
    assertThat("/" + "workload/.abfleet/run").isEqualTo(WorkloadImage.RUN_FILE);
  }

  @Test
  void aTimeoutOfZeroIsTheDefaultAndTheLayerIsCachedByContent() throws Exception {
    Path first = WorkloadImage.runLayer(cache, "true", 0);

    assertThat(WorkloadPackTest.contents(first, "workload/.abfleet/timeout_s")).isEqualTo("600\n");
    assertThat(WorkloadImage.runLayer(cache, "true", 600)).isEqualTo(first);
    assertThat(WorkloadImage.runLayer(cache, "true", 601)).isNotEqualTo(first);
  }

  @Test
  void refusesAnEmptyCommand() {
    assertThatThrownBy(() -> WorkloadImage.runLayer(cache, "  ", 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run command");
  }

  @Test
  void appendsTheLayersToTheBaseImageByteForByte() throws Exception {
    Path base = Files.write(cache.resolve("base.cpio.gz"), new byte[] {0x1f, (byte) 0x8b, 3});
    Path files = Files.write(cache.resolve("files.cpio.gz"), new byte[] {0x1f, (byte) 0x8b, 5});
    Path settings = WorkloadImage.runLayer(cache, "true", 5);

    Path image = InitramfsLayers.compose(cache, base, List.of(), List.of(files, settings));

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (Path p : List.of(base, files, settings)) {
      expected.write(Files.readAllBytes(p));
    }
    assertThat(Files.readAllBytes(image)).isEqualTo(expected.toByteArray());
    assertThat(InitramfsLayers.compose(cache, base, List.of(), List.of(files, settings))).isEqualTo(image);
    assertThat(InitramfsLayers.compose(cache, base, List.of(), List.of(settings, files))).isNotEqualTo(image);
  }
}
