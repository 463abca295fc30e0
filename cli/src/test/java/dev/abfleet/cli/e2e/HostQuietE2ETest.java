package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The quiet-host policy on real QEMU with a CPU hog beside it: an A/A of the cloud kernel while
 * two busy loops (another process, one per host CPU) run for the whole experiment. Each measured
 * boot waits (bounded) for a quiet host, is marked interfered, and its pair runs again once; the
 * re-run is interfered too, so the pair is kept with a warning. Runs alone: the hog would slow
 * any test beside it.
 */
@Tag("e2e")
@Isolated
class HostQuietE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aBusyNeighbourMakesEveryBootInterferedReRunsEachPairOnceAndIsCounted() throws Exception {
    Path kernel = Kernels.cloud();
    Path fleet = Files.writeString(dir.resolve("fleet.yaml"), String.join("\n",
        "controller:",
        "  store: {path: " + dir.resolve("store") + "}",
        "policy:",
        "  host_quiet: {max_wait_s: 2, max_reruns_per_pair: 1}",
        "benchmarks:",
        "  small:",
        "    metrics: [metadata_stat]",
        "    iterations: 2",
        ""));
    Path spec = Files.writeString(dir.resolve("aa.yaml"), String.join("\n",
        "benchmark: small",
        "pairs: 2",
        "arms:",
        "  - {name: a, role: baseline, kernel: " + kernel + "}",
        "  - {name: b, role: candidate, kernel: " + kernel + "}",
        ""));

    List<Process> hog = new ArrayList<>();
    Cli.Result r;
    try {
      for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
        hog.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
      }
      r = Cli.run(dir, 20, "ab", "--config", fleet.toString(), "--spec", spec.toString(), "--format", "json");
    } finally {
      hog.forEach(Process::destroyForcibly);
    }

    assertThat(r.exit()).as(r.err()).isIn(0, 1);
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("state").asText()).isEqualTo("completed");
    // two pairs, each run twice (the limit is one re-run), the first run of each kept for the record
    assertThat(report.get("interfered_reruns").asInt()).as(report.toString()).isEqualTo(2);
    JsonNode boots = report.get("boots");
    assertThat(boots).as(report.toString()).hasSize(8);
    List<JsonNode> rerun = new ArrayList<>();
    boots.forEach(b -> {
      if (b.path("rerun").asBoolean()) {
        rerun.add(b);
      }
    });
    assertThat(rerun).hasSize(4);
    assertThat(boots).allSatisfy(b -> {
      assertThat(b.get("interfered").asBoolean()).as(b.toString()).isTrue();
      assertThat(b.at("/host/pressure/other_cpu_ms").asLong()).as(b.toString()).isPositive();
      // each waited for a quiet host until max_wait_s
      assertThat(b.get("quiet_wait_ms").asLong()).as(b.toString()).isBetween(1_500L, 4_000L);
    });
    JsonNode arm = report.at("/host_pressure_by_arm/a");
    assertThat(arm.get("interfered_rerun").asInt()).as(arm.toString()).isEqualTo(2);
    assertThat(arm.get("interfered_kept").asInt()).as(arm.toString()).isEqualTo(2);
    assertThat(arm.get("other_cpu_pct_median").asDouble()).as(arm.toString()).isGreaterThan(10);
  }
}
