package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code abfleet ab --spec} from source: both arms built from Debian's linux-source-6.1 with the
 * tool's minimal config (no ACPI: these kernels cannot power off, only halt), one with a patch
 * that slows every stat(); real boots in QEMU (TCG here).
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class AbBuildE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void buildsBothArmsBootsThemAndCallsTheSlowedStatPathRegressed(@TempDir Path dir) throws Exception {
    Path spec = spec(dir, Files.readString(SourceKernels.slowStatPatch()));

    Cli.Result r = Cli.run(dir, 40, SourceKernels.env(), "ab", "--spec", spec.toString(), "--pairs", "8",
        "--format", "json");

    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    Map<String, JsonNode> byMetric = new HashMap<>();
    report.get("comparisons").forEach(c -> byMetric.put(c.get("metric").asText(), c));
    JsonNode stat = byMetric.get("metadata_stat");
    assertThat(stat.get("verdict").asText()).as(stat.toString()).isEqualTo("regressed");
    assertThat(stat.get("change").asDouble()).as(stat.toString()).isLessThan(-0.2);
    // Every boot of a kernel that cannot power off completed: none was lost to the boot timeout.
    AbVerdictE2ETest.assertBootsArePairedAndBalanced(report, 8);
    JsonNode builds = report.get("builds");
    assertThat(builds.get("stock").get("key").asText()).hasSize(64);
    assertThat(builds.get("slow").get("key").asText()).hasSize(64)
        .isNotEqualTo(builds.get("stock").get("key").asText());
    assertThat(builds.get("slow").get("patches").get(0).asText()).isEqualTo("slow-stat.patch");
    assertThat(builds.get("stock").get("patches")).isEmpty();
  }

  @Test
  void aPatchThatDoesNotApplyEndsBeforeAnyBootWithOneLineNamingArmAndFile(@TempDir Path dir) throws Exception {
    String patch = Files.readString(SourceKernels.slowStatPatch()).replace(" \tint retval;\n", " \tint retval2;\n");
    Path spec = spec(dir, patch);

    Cli.Result r = Cli.run(dir, 40, SourceKernels.env(), "ab", "--spec", spec.toString(), "--pairs", "8");

    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    String line = failureLine(r.err());
    assertThat(line).contains("arm 'slow'", "(patch)", "slow-stat.patch", "fs/stat.c");
    assertThat(r.err()).doesNotContain("submitted");
  }

  @Test
  void aPatchThatDoesNotCompileEndsWithTheFileAndTheFirstCompilerError(@TempDir Path dir) throws Exception {
    String patch = Files.readString(SourceKernels.slowStatPatch()).replace("+\tudelay(20);", "+\tudelay(20) +;");
    Path spec = spec(dir, patch);

    Cli.Result r = Cli.run(dir, 40, SourceKernels.env(), "ab", "--spec", spec.toString(), "--pairs", "8");

    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    String line = failureLine(r.err());
    assertThat(line).contains("arm 'slow'", "(compile)", "fs/stat.c", "error:");
    assertThat(r.err()).doesNotContain("submitted");
  }

  /** The shipped example's spec, with its patch replaced by {@code patch} and the tarball of this machine. */
  private static Path spec(Path dir, String patch) throws Exception {
    Path tarball = SourceKernels.tarball();
    Files.writeString(dir.resolve("slow-stat.patch"), patch);
    return Files.writeString(dir.resolve("ab.yaml"), String.join("\n",
        "benchmark: fuse-metadata",
        "metrics: [metadata_stat]", // what the patch slows; the other three would only add harness time
        "iterations: 2",
        "arms:",
        "  - name: stock",
        "    role: baseline",
        "    build: {source: " + tarball + ", config: abfleet-minimal}",
        "  - name: slow",
        "    role: candidate",
        "    build: {source: " + tarball + ", patches: [slow-stat.patch], config: abfleet-minimal}",
        ""));
  }

  /** The one line that says why the command ended: the last line of stderr. */
  private static String failureLine(String err) {
    String[] lines = err.strip().split("\n");
    return lines[lines.length - 1];
  }
}
