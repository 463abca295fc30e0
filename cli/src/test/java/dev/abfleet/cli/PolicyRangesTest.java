package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * ab and analyze accept the same --alpha and --threshold values and reject the others with
 * the same message. An accepted value lets the command go on to its next check, which each
 * run here fails on purpose (ab: --iterations 0, analyze: --max-pairs 0), so nothing runs.
 */
class PolicyRangesTest {
  @TempDir Path dir;

  @BeforeEach
  void isolateHome() throws IOException {
    System.setProperty("abfleet.home", Files.createDirectories(dir.resolve("home")).toString());
  }

  @AfterEach
  void restoreHome() {
    System.clearProperty("abfleet.home");
  }

  private String ab(String option, String value) throws IOException {
    byte[] kernel = new byte[4096];
    System.arraycopy("HdrS".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, kernel, 0x202, 4);
    Path k = Files.write(dir.resolve("vmlinuz"), kernel);
    return error("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, option, value, "--iterations", "0");
  }

  private String analyze(String option, String value) throws IOException {
    List<String> lines = new ArrayList<>();
    for (int pair = 0; pair < 3; pair++) {
      for (String arm : List.of("a", "b")) {
        lines.add(String.format(Locale.ROOT, "{\"arm\":\"%s\",\"host\":\"h\",\"pair\":%d,\"boot\":\"%s%d\","
            + "\"metric\":\"m\",\"value\":1,\"unit\":\"ns\",\"better\":\"lower\"}", arm, pair, arm, pair));
      }
    }
    Path f = Files.write(dir.resolve("s.jsonl"), lines);
    return error("analyze", option, value, "--max-pairs", "0", f.toString());
  }

  /** Runs the command, expects exit 2 with one line, and returns that line. */
  private static String error(String... args) {
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(err, true), args);
    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString().strip().lines().count()).as(err.toString()).isEqualTo(1);
    return err.toString().strip();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-0.01", "0.5", "0.7", "1", "NaN"})
  void abAndAnalyzeRejectTheSameAlphaWithTheSameMessage(String alpha) throws IOException {
    String ab = ab("--alpha", alpha);
    assertThat(ab).startsWith("abfleet: --alpha ").contains("between 0 and 0.5");
    assertThat(analyze("--alpha", alpha)).isEqualTo(ab);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.001", "0.05", "0.49"})
  void abAndAnalyzeAcceptTheSameAlpha(String alpha) throws IOException {
    assertThat(ab("--alpha", alpha)).contains("--iterations 0");
    assertThat(analyze("--alpha", alpha)).contains("--max-pairs 0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-0.02", "1", "1.5", "Infinity"})
  void abAndAnalyzeRejectTheSameThresholdWithTheSameMessage(String threshold) throws IOException {
    String ab = ab("--threshold", threshold);
    assertThat(ab).startsWith("abfleet: --threshold ").contains("between 0 and 1");
    assertThat(analyze("--threshold", threshold)).isEqualTo(ab);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.0001", "0.02", "0.99"})
  void abAndAnalyzeAcceptTheSameThreshold(String threshold) throws IOException {
    assertThat(ab("--threshold", threshold)).contains("--iterations 0");
    assertThat(analyze("--threshold", threshold)).contains("--max-pairs 0");
  }
}
