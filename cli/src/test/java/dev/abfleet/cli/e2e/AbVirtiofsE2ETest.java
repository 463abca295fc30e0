package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code abfleet ab} on a virtio-fs host volume, served by the virtiofsd this host has (Debian
 * 12: QEMU's own C daemon, /usr/lib/qemu/virtiofsd, run as root): A/As of Debian's generic
 * kernel (virtio-fs as modules) and of a self-built minimal kernel (built in), and a real daemon
 * option on the candidate ({@code cache=none}: every stat() is a round trip to the daemon) moving
 * metadata_stat, with 2 vCPUs and 2 harness threads: per-CPU interrupt counts in every boot, and
 * reschedule IPIs per op and per virtio-fs request with their intervals in the report. Small
 * trees (100 files) and two iterations keep the six metrics cheap under TCG.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class AbVirtiofsE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PAIRS = 6;

  @Test
  void anAaOfTheGenericKernelOnVirtiofsIsNeverDecidedAndEveryBootSaysVirtiofsAndItsDaemon(@TempDir Path dir)
      throws Exception {
    String kernel = "kernel: " + Kernels.generic();
    JsonNode report = aa(dir, kernel, kernel);

    for (JsonNode b : AaReports.completedBoots(report)) {
      assertThat(b.at("/volume/transport").asText()).isEqualTo("virtiofs");
      assertThat(b.at("/volume/daemon").asText()).as(b.toString()).matches("(qemu-)?virtiofsd.*");
      assertThat(b.at("/volume/daemon_options").asText()).isEqualTo("cache=auto");
      assertThat(b.at("/volume/daemon_cpu_ms").asLong()).as(b.toString()).isPositive();
      assertThat(b.at("/volume/daemon_threads").asInt()).as(b.toString()).isPositive();
      assertThat(b.at("/telemetry/seq_read/work").asDouble()).isPositive();
    }
  }

  @Test
  void anAaOfASelfBuiltMinimalKernelOnVirtiofsIsNeverDecided(@TempDir Path dir) throws Exception {
    String build = "build: {source: " + SourceKernels.tarball() + ", config: abfleet-minimal}";
    JsonNode report = aa(dir, build, build);

    for (JsonNode b : AaReports.completedBoots(report)) {
      assertThat(b.at("/volume/transport").asText()).isEqualTo("virtiofs");
    }
  }

  @Test
  void cacheNoneOnTheDaemonSendsEveryStatToItAndIsCalledRegressedWithPerCpuCountersAndReschedulesPerRequest(
      @TempDir Path dir) throws Exception {
    Path spec = Files.writeString(dir.resolve("cache.yaml"), String.join("\n",
        "benchmark: virtiofs",
        "metrics: [metadata_stat, negative_lookup]",
        // One more than the A/As: a pair that loses a boot (AaReports.completedBoots) still
        // leaves six, enough for a family-wise interval over the two gating metrics.
        "pairs: " + (PAIRS + 1),
        // Three: with two, a baseline boot can see no virtio-fs request in metadata_stat's window
        // (cache=auto answers from the guest), and its per-request ratio is left out.
        "iterations: 3",
        "threads: 2",
        "vm: {vcpus: 2}",
        "arms:",
        "  - {name: auto, role: baseline, kernel: " + Kernels.generic() + "}",
        "  - {name: none, role: candidate, kernel: " + Kernels.generic() + ", volume: {cache: none}}",
        ""));

    Cli.Result r = Cli.run(dir, 20, "ab", "--spec", spec.toString(), "--format", "json");

    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    List<JsonNode> completed = AaReports.completedBoots(report);
    JsonNode stat = AaReports.row(report, "none", "metadata_stat");
    assertThat(stat.get("verdict").asText()).as(stat.toString()).isEqualTo("regressed");
    assertThat(stat.get("ci_high").asDouble()).as(stat.toString()).isNegative();
    for (JsonNode b : completed) {
      assertThat(b.at("/volume/daemon_options").asText())
          .isEqualTo(b.get("arm").asText().equals("none") ? "cache=none" : "cache=auto");
      JsonNode boot = b.at("/telemetry/metadata_stat");
      assertThat(boot.get("thread_rates")).as(b.toString()).hasSize(2);
      assertThat(boot.get("interrupts_per_cpu")).as(b.toString()).isNotEmpty()
          .allSatisfy(row -> assertThat(row).hasSize(2));
    }
    // Reschedule IPIs per op and per virtio-fs request IRQ, each with its paired interval.
    assertThat(report.get("telemetry_changes")).as(report.toString()).anySatisfy(c -> {
      assertThat(c.get("arm").asText()).isEqualTo("none");
      assertThat(c.get("counter").asText()).isEqualTo("RES");
      assertThat(c.has("ci_low")).isTrue();
    });
    // On either metric: a pair whose cache=auto boot sent no request in metadata_stat's window
    // has no ratio, and when a pair also lost a boot, five are too few for a 95% sign-flip
    // interval (its p floor is 1/16).
    assertThat(report.get("ratios")).as(report.toString()).anySatisfy(c -> {
      assertThat(c.get("arm").asText()).isEqualTo("none");
      assertThat(c.get("name").asText()).isEqualTo("res_per_device_req");
      assertThat(c.get("ci_low").isNumber()).as(c.toString()).isTrue();
      assertThat(c.get("ci_high").isNumber()).as(c.toString()).isTrue();
    });
  }

  /** An A/A of two arms given as spec lines; a chance verdict is told from a real one by a second run. */
  private static JsonNode aa(Path dir, String a, String b) throws Exception {
    Path spec = Files.writeString(dir.resolve("aa.yaml"), String.join("\n",
        "benchmark: virtiofs",
        "files: 100",
        "pairs: " + PAIRS,
        "iterations: 2",
        "arms:",
        "  - {name: a, role: baseline, " + a + "}",
        "  - {name: b, role: candidate, " + b + "}",
        ""));
    return AaReports.undecided(() -> run(dir, spec));
  }

  private static JsonNode run(Path dir, Path spec) throws Exception {
    Cli.Result r = Cli.run(dir, 40, SourceKernels.env(), "ab", "--spec", spec.toString(), "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("pairs_done").asInt()).isEqualTo(PAIRS);
    return report;
  }
}
