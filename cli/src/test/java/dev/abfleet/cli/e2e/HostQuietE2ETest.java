package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The quiet-host policy on real QEMU with a CPU hog beside it. Under the default policy (fleet.yaml
 * without host_quiet): an A/A on a quiet host marks no boot; the same A/A with busy loops started
 * while its first boot runs marks that boot interfered and runs its pair again once the loops
 * stopped, and no interfered boot reaches the verdict. With loops for the whole experiment: each
 * measured boot waits (bounded) for a quiet host, is marked interfered, and its pair runs again
 * once; the re-run is interfered too, so the pair is kept with a warning. Runs alone: the hog
 * would slow any test beside it.
 */
@Tag("e2e")
@Isolated
class HostQuietE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** fleet.yaml without policy.host_quiet (the default policy) and an A/A spec of {@code pairs}. */
  private Path[] defaultPolicyAa(Path kernel, String name, int pairs) throws Exception {
    return aa(kernel, name, pairs, "");
  }

  /** fleet.yaml with {@code hostQuiet} as its policy.host_quiet ("" = unset) and an A/A spec of {@code pairs}. */
  private Path[] aa(Path kernel, String name, int pairs, String hostQuiet) throws Exception {
    Path fleet = Files.writeString(dir.resolve(name + "-fleet.yaml"), String.join("\n",
        "controller:",
        "  store: {path: " + dir.resolve(name + "-store") + "}",
        hostQuiet.isEmpty() ? "" : "policy:\n  host_quiet: " + hostQuiet,
        "benchmarks:",
        "  small:",
        "    metrics: [metadata_stat]",
        "    iterations: 2",
        ""));
    Path spec = Files.writeString(dir.resolve(name + "-aa.yaml"), String.join("\n",
        "benchmark: small",
        "pairs: " + pairs,
        "arms:",
        "  - {name: a, role: baseline, kernel: " + kernel + "}",
        "  - {name: b, role: candidate, kernel: " + kernel + "}",
        ""));
    return new Path[] {fleet, spec};
  }

  @Test
  void underTheDefaultPolicyAQuietHostMarksNothingAndBootsABusyLoopDisturbedRunAgain() throws Exception {
    Path kernel = Kernels.cloud();
    Path[] quiet = defaultPolicyAa(kernel, "quiet", 2);
    Cli.Result q = Cli.run(dir, 15, "ab", "--config", quiet[0].toString(), "--spec", quiet[1].toString(),
        "--format", "json");
    assertThat(q.exit()).as(q.err()).isIn(0, 1);
    JsonNode quietReport = JSON.readTree(q.out());
    assertThat(quietReport.get("interfered_reruns").asInt()).as(quietReport.toString()).isZero();
    assertThat(quietReport.get("boots")).hasSize(4).allSatisfy(b -> {
      assertThat(b.get("interfered").asBoolean()).as(b.toString()).isFalse();
      assertThat(b.at("/host/pressure/other_cpu_ms").isNumber()).as(b.toString()).isTrue();
    });

    Path[] busy = defaultPolicyAa(kernel, "busy", 2);
    Process ab = Cli.start(dir, "busy", "ab", "--config", busy[0].toString(), "--spec", busy[1].toString(),
        "--format", "json");
    List<Process> hog = new ArrayList<>();
    try {
      // The loops start once the first VM runs (a QEMU given -kernel, not the worker's
      // --version probe) and stop 8 s later: that boot's window overlaps them, the boot after it
      // waits for the host to be quiet again.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (ab.isAlive() && System.nanoTime() < deadline && ab.descendants().noneMatch(HostQuietE2ETest::isVm)) {
        Thread.sleep(50);
      }
      for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
        hog.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
      }
      Thread.sleep(8_000);
      hog.forEach(Process::destroyForcibly);
      assertThat(ab.waitFor(15, TimeUnit.MINUTES)).as("ab finished").isTrue();
    } finally {
      hog.forEach(Process::destroyForcibly);
      ab.destroyForcibly();
    }
    String err = Cli.read(dir.resolve("busy.err"));
    assertThat(ab.exitValue()).as(err).isIn(0, 1);
    JsonNode report = JSON.readTree(Cli.read(dir.resolve("busy.out")));
    assertThat(report.get("state").asText()).isEqualTo("completed");
    assertThat(report.get("pairs_done").asInt()).isEqualTo(2);
    assertThat(report.get("interfered_reruns").asInt()).as(report.toString()).isPositive();
    List<JsonNode> rerun = new ArrayList<>();
    List<JsonNode> kept = new ArrayList<>();
    report.get("boots").forEach(b -> (b.path("rerun").asBoolean() ? rerun : kept).add(b));
    assertThat(rerun).as(report.toString()).isNotEmpty()
        .anySatisfy(b -> assertThat(b.get("interfered").asBoolean()).isTrue());
    assertThat(kept).as(report.toString()).hasSize(4)
        .allSatisfy(b -> assertThat(b.get("interfered").asBoolean()).as(b.toString()).isFalse());
    assertThat(report.get("comparisons")).isNotEmpty().allSatisfy(c ->
        assertThat(c.get("verdict").asText()).as(c.toString()).isNotIn("improved", "regressed"));
  }

  private static boolean isVm(ProcessHandle h) {
    return h.info().command().orElse("").contains("qemu-system")
        && List.of(h.info().arguments().orElse(new String[0])).contains("-kernel");
  }

  @Test
  void aBusyNeighbourMakesEveryBootInterferedReRunsEachPairOnceAndIsCounted() throws Exception {
    Path[] aa = aa(Kernels.cloud(), "hog", 2, "{max_wait_s: 2, max_reruns_per_pair: 1}");

    List<Process> hog = new ArrayList<>();
    Cli.Result r;
    try {
      for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
        hog.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
      }
      r = Cli.run(dir, 20, "ab", "--config", aa[0].toString(), "--spec", aa[1].toString(), "--format", "json");
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
