package dev.abfleet.cli.e2e;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code abfleet ab} on the host-volume benchmark: Debian's generic 6.1 kernel (9p as modules)
 * boots in real QEMU (TCG here), mounts a fresh host directory over 9p and runs the harness on
 * it. The acceptance runs of the host-volume work: an A/A with 2 vCPUs, the same kernel with
 * {@code cache=loose} on the candidate (a real, large change of the 9p metadata path) beside a
 * hard-pinned ceiling, and the cloud kernel (no 9p) refused as a configuration error.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class AbHostVolumeE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SIX = List.of("metadata_stat", "negative_lookup",
      "create_delete", "seq_read", "find_recursive", "rm_rf");

  @Test
  void sameKernelOnTheHostVolumeWithTwoVcpusIsNeverDecidedAndEveryBootSays9pWithCounters(
      @TempDir Path dir) throws Exception {
    Path k = Kernels.generic();
    Path spec = Files.writeString(dir.resolve("aa.yaml"), String.join("\n",
        "benchmark: host-volume",
        "files: 100",
        "pairs: 6",
        "iterations: 2",
        "vm: {vcpus: 2}",
        "arms:",
        "  - {name: a, role: baseline, kernel: " + k + "}",
        "  - {name: b, role: candidate, kernel: " + k + "}",
        ""));
    JsonNode report = AaReports.undecided(() -> aaRun(dir, spec));
    for (JsonNode b : AaReports.completedBoots(report)) {
      assertThat(b.at("/volume/transport").asText()).isEqualTo("9p");
      assertThat(b.at("/volume/options").asText()).contains("trans=virtio");
      for (String metric : SIX) {
        assertThat(b.at("/telemetry/" + metric + "/interrupts")).as(metric + " of " + b.get("run_id"))
            .isNotEmpty();
        assertThat(b.at("/telemetry/" + metric + "/work").asDouble()).isPositive();
      }
    }
  }

  private static JsonNode aaRun(Path dir, Path spec) throws Exception {
    Cli.Result r = Cli.run(dir, 20, "ab", "--spec", spec.toString(), "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("pairs_done").asInt()).isEqualTo(6);
    assertThat(report.get("comparisons")).hasSize(SIX.size());
    for (JsonNode c : report.get("comparisons")) {
      assertThat(c.get("verdict").asText()).as(c.toString())
          .isIn(java.util.Arrays.stream(dev.abfleet.stats.Verdict.values()).map(dev.abfleet.stats.Verdict::wire).toList());
      assertThat(c.get("adjustment").asText()).as(c.toString()).isEqualTo("maxT");
    }
    return report;
  }

  @Test
  void cacheLooseIsCalledImprovedOnMetadataStatWithFewer9pInterruptsPerOpAndAPinnedCeiling(
      @TempDir Path dir) throws Exception {
    Path k = Kernels.generic();
    Path spec = Files.writeString(dir.resolve("loose.yaml"), String.join("\n",
        "benchmark: host-volume",
        "metrics: [metadata_stat, negative_lookup]",
        "pairs: 8",
        "iterations: 2",
        "arms:",
        "  - {name: stock, role: baseline, kernel: " + k + "}",
        "  - {name: loose, role: candidate, kernel: " + k + ", volume_options: cache=loose}",
        "  - name: pinned",
        "    role: ceiling",
        "    kernel: " + k,
        "    volume_options: cache=loose",
        "    vm: {vcpus: 1, pin_vcpus: true}",
        ""));
    Cli.Result r = Cli.run(dir, 25, "ab", "--spec", spec.toString(), "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    JsonNode stat = AaReports.row(report, "loose", "metadata_stat");
    assertThat(stat.get("verdict").asText()).as(stat.toString()).isEqualTo("improved");
    assertThat(stat.get("ci_low").asDouble()).as(stat.toString()).isPositive();
    assertThat(stat.get("of_ceiling").asDouble()).as(stat.toString()).isPositive();

    // The 9p device's interrupts per stat fall: attributes come from the guest's cache.
    Map<String, List<Double>> virtioPerOp = new TreeMap<>();
    for (JsonNode b : report.get("boots")) {
      JsonNode t = b.at("/telemetry/metadata_stat");
      double virtio = 0;
      for (var it = t.get("interrupts").fields(); it.hasNext(); ) {
        var e = it.next();
        if (e.getKey().startsWith("virtio")) {
          virtio += e.getValue().asDouble();
        }
      }
      virtioPerOp.computeIfAbsent(b.get("arm").asText(), a -> new ArrayList<>())
          .add(virtio / t.get("work").asDouble());
      if (b.get("arm").asText().equals("pinned")) {
        assertThat(b.get("vcpu_host_cpus")).as(b.toString()).hasSize(1);
      } else {
        assertThat(b.has("vcpu_host_cpus")).isFalse();
      }
    }
    assertThat(median(virtioPerOp.get("loose"))).as(virtioPerOp.toString())
        .isLessThan(median(virtioPerOp.get("stock")) / 2);
    assertThat(report.get("telemetry_changes")).anySatisfy(c -> {
      assertThat(c.get("arm").asText()).isEqualTo("loose");
      assertThat(c.get("metric").asText()).isEqualTo("metadata_stat");
      assertThat(c.get("change").asDouble()).isNegative();
    });
  }

  @Test
  void theCloudKernelWithout9pIsAConfigurationErrorNotABootFailure(@TempDir Path dir)
      throws Exception {
    Path k = Kernels.cloud();
    Cli.Result r = Cli.run(dir, 10, "ab", "--benchmark", "host-volume", "--baseline", "a=" + k,
        "--candidate", "b=" + k, "--pairs", "2", "--format", "json");
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.FAILED);
    assertThat(r.err()).contains("has no modules").contains("9p")
        .contains("linux-image-6.1.0-50-amd64").doesNotContain("\tat ");
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("state").asText()).isEqualTo("failed");
    for (JsonNode b : report.get("boots")) {
      assertThat(b.get("status").asText()).as(b.toString()).isNotEqualTo("boot_failed");
    }
  }


  private static double median(List<Double> values) {
    List<Double> s = values.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
