package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.worker.WorkerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code abfleet calibrate --real} on this machine's QEMU (TCG here): one A/A experiment of two
 * pairs writes the host class's noise record into an isolated ABFLEET_HOME, and the next
 * {@code ab} on that class quotes it.
 */
@Tag("e2e")
class CalibrateRealE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void abReportQuotesTheNoiseCalibrateRealMeasured(@TempDir Path dir) throws Exception {
    Path kernel = Kernels.cloud();
    Path home = isolatedHome(dir);
    Map<String, String> env = Map.of("ABFLEET_HOME", home.toString());

    Result calibrate = run(dir, "calibrate", env, "calibrate", "--real", "--experiments", "1", "--pairs", "2",
        "--kernel", kernel.toString(), "--format", "json");
    assertThat(calibrate.exit()).as(calibrate.err()).isZero();
    JsonNode measured = JSON.readTree(calibrate.out()).get("noise_calibration").get(0);
    String cls = measured.get("class").asText();
    assertThat(cls).startsWith("qemu/");
    assertThat(measured.get("experiments").asInt()).isEqualTo(1);
    try (var files = Files.list(home.resolve("noise"))) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).toList())
          .containsExactly(cls.replaceAll("[^A-Za-z0-9.=-]+", "_") + ".json");
    }
    JsonNode metadata = metric(measured, "metadata_stat");
    assertThat(metadata.get("pairs").asInt()).isEqualTo(2);
    assertThat(metadata.get("cv").asDouble()).isPositive();
    assertThat(metadata.get("paired_sd").asDouble()).isPositive();

    Result ab = run(dir, "ab", env, "ab", "--baseline", "x=" + kernel, "--candidate", "y=" + kernel,
        "--pairs", "2", "--format", "json");
    assertThat(ab.exit()).as(ab.err()).isZero();
    JsonNode quoted = JSON.readTree(ab.out()).get("noise_calibration");
    assertThat(quoted).as(ab.out()).hasSize(1);
    assertThat(quoted.get(0).get("class").asText()).isEqualTo(cls);
    assertThat(metric(quoted.get(0), "metadata_stat").get("paired_sd").asDouble())
        .isEqualTo(metadata.get("paired_sd").asDouble());
    assertThat(quoted.get(0).get("pairs_for_mde").asInt()).isGreaterThanOrEqualTo(6);
  }

  private static JsonNode metric(JsonNode cls, String name) {
    for (JsonNode m : cls.get("metrics")) {
      if (m.get("metric").asText().equals(name)) {
        return m;
      }
    }
    throw new AssertionError("no metric " + name + " in " + cls);
  }

  /** A fresh home (own store, noise records, artifacts) reusing the real home's downloaded kernels and guest builds. */
  static Path isolatedHome(Path dir) throws Exception {
    Path real = WorkerSettings.defaultHome();
    Path home = Files.createDirectories(dir.resolve("home"));
    for (String cached : List.of("kernels", "guest")) {
      if (Files.isDirectory(real.resolve(cached))) {
        Files.createSymbolicLink(home.resolve(cached), real.resolve(cached));
      }
    }
    return home;
  }

  private record Result(int exit, String out, String err) {}

  private static Result run(Path dir, String name, Map<String, String> env, String... args) throws Exception {
    Process p = Cli.start(dir, name, List.of(), env, args);
    if (!p.waitFor(6, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("abfleet " + String.join(" ", args) + " did not finish in 6 min; stderr:\n"
          + Cli.read(dir.resolve(name + ".err")));
    }
    return new Result(p.exitValue(), Cli.read(dir.resolve(name + ".out")), Cli.read(dir.resolve(name + ".err")));
  }
}
