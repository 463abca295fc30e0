package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.vm.GuestOutputCaps;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A guest that floods its results channel: 100 MB, generated here, read the way a boot's results
 * are ({@link ResultsHead}, then {@link GuestProtocol}). The worker reads and parses a bounded head,
 * names the size in the over-cap message, and gets error values, not an exception or an
 * out-of-memory.
 */
class HostileResultsFloodTest {
  @TempDir Path dir;

  private static final long FLOOD = 100L << 20;

  /** {@code bytes} of noise lines: a valid sample now and then among NaNs, cut objects and text. */
  private static Path flood(Path file, long bytes) throws IOException {
    String[] lines = {
        "{\"metric\":\"metadata_stat\",\"value\":NaN,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}\n",
        "{\"metric\":\"metadata_stat\",\"value\":1.5,\"unit\":\"ops/s\",\"be\n",
        "[    1.234567] random: crng init done \u001b[0m\n",
        "{\"event\":\"reboot\"}\n"};
    byte[] block = String.join("", java.util.Collections.nCopies(2048, String.join("", lines)))
        .getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long written = 0; written < bytes; written += block.length) {
        out.write(block, 0, (int) Math.min(block.length, bytes - written));
      }
    }
    return file;
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void hundredMegabytesOfResultsAreReadAsABoundedHeadAndParsedToErrorValues() throws IOException {
    Path results = flood(dir.resolve("results.log"), FLOOD);

    ResultsHead head = ResultsHead.read(results);
    ParsedRun run = GuestProtocol.parse(head.bytes());

    assertThat(head.bytes().length).isEqualTo((int) GuestOutputCaps.RESULTS_BYTES);
    assertThat(head.overCap().orElseThrow()).isEqualTo("results.log grew to " + FLOOD + " bytes, past its cap of "
        + GuestOutputCaps.RESULTS_BYTES + " bytes");
    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).hasSize(20);
    assertThat(run.parseErrorsOmitted()).isGreaterThan(10_000);
    assertThat(run.parseErrors().get(0).message()).contains("non-finite value NaN");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aSingleTenMegabyteLineIsCutAtTheCapAndRejectedAsTooLong() throws IOException {
    Path results = Files.writeString(dir.resolve("results.log"), "{\"metric\":\"" + "m".repeat(10 << 20) + "\"}\n");

    ResultsHead head = ResultsHead.read(results);
    ParsedRun run = GuestProtocol.parse(head.bytes());

    assertThat(head.overCap().orElseThrow()).contains("past its cap of " + GuestOutputCaps.RESULTS_BYTES + " bytes");
    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).singleElement().satisfies(e -> assertThat(e.message())
        .startsWith("line too long: 1048576 characters").contains("write one protocol object per line"));
  }
}
