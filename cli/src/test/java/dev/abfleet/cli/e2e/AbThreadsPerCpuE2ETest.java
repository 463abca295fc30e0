package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * fleetbench on two threads in a two-vCPU guest (Debian's generic 6.1 kernel, real QEMU): every
 * boot's JSON carries one rate per thread and one count per vCPU for each interrupt and softirq
 * row and for wake-ups.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class AbThreadsPerCpuE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void twoThreadsOnTwoVcpusReportTwoThreadRatesAndTwoCountsPerRow() throws Exception {
    Path kernel = Kernels.generic();
    // The spec's threads: 2 overrides the benchmark's 1.
    Path fleet = Files.writeString(dir.resolve("fleet.yaml"), String.join("\n",
        "controller:",
        "  store: {path: " + dir.resolve("store") + "}",
        "benchmarks:",
        "  wide:",
        "    metrics: [metadata_stat, create_delete]",
        "    iterations: 2",
        "    threads: 1",
        ""));
    Path spec = Files.writeString(dir.resolve("threads.yaml"), String.join("\n",
        "benchmark: wide",
        "pairs: 2",
        "threads: 2",
        "vm: {vcpus: 2, memory_mib: 512}",
        "arms:",
        "  - {name: a, role: baseline, kernel: " + kernel + "}",
        "  - {name: b, role: candidate, kernel: " + kernel + "}",
        ""));

    Cli.Result r = Cli.run(dir, 20, "ab", "--config", fleet.toString(), "--spec", spec.toString(),
        "--format", "json");

    assertThat(r.exit()).as(r.err()).isIn(0, 1);
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("boots")).as(r.err()).hasSize(4);
    for (JsonNode b : report.get("boots")) {
      assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok");
      for (String metric : new String[] {"metadata_stat", "create_delete"}) {
        JsonNode t = b.at("/telemetry/" + metric);
        assertThat(t.get("thread_rates")).as(t.toString()).hasSize(2).allMatch(x -> x.asDouble() > 0);
        assertThat(t.get("interrupts_per_cpu")).as(t.toString()).isNotEmpty();
        t.get("interrupts_per_cpu").forEach(row -> assertThat(row).as(t.toString()).hasSize(2));
        t.get("softirqs_per_cpu").forEach(row -> assertThat(row).as(t.toString()).hasSize(2));
        assertThat(t.get("wakeups_per_cpu")).as(t.toString()).hasSize(2);
      }
    }
  }
}
