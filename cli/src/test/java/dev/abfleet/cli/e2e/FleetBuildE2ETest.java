package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code abfleet build --controller}: a controller and two worker processes, Debian's
 * linux-source-6.1 with the minimal config and a patch no other build of the run has (so the
 * build compiles). The two workers share the run's build cache as two builders on one host
 * would: the base tree is warm from the other build tests (or built here once), and a build
 * killed mid-compile leaves the survivor a tree to finish incrementally. The worker that takes
 * the build is killed with SIGKILL once it compiles; the build must end on the other worker and
 * the key and image come back to the client.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class FleetBuildE2ETest {
  private static final Pattern COMPILING = Pattern.compile("build attempt \\S+: phase compile");

  @Test
  void aBuilderKilledMidBuildHasItsBuildFinishedByTheOtherBuilder(@TempDir Path dir) throws Exception {
    Path tarball = SourceKernels.tarball();
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      Map<String, Process> workers = Map.of("w1", fleet.startWorker("w1", SourceKernels.env()),
          "w2", fleet.startWorker("w2", SourceKernels.env()));
      awaitConnected(fleet, List.of("w1", "w2"));
      // A comment no earlier build had: a new key, compiled on the warm tree.
      Path patch = Files.writeString(dir.resolve("fleet-build.patch"), SourceKernels.commentPatch(
          "fleet build " + System.nanoTime()));
      Process client = Cli.start(dir, "build", List.of(),
          Map.of("ABFLEET_BUILD_HOME", dir.resolve("client-builds").toString()),
          "build", "--source", tarball.toString(), "--patch", patch.toString(), "--config", "abfleet-minimal",
          "--controller", fleet.target());

      String victim = awaitCompiling(fleet, client, List.of("w1", "w2"));
      // The host dies: the worker and the compiler it started, with no goodbye on the stream.
      workers.get(victim).descendants().forEach(ProcessHandle::destroyForcibly);
      workers.get(victim).destroyForcibly();
      String survivor = victim.equals("w1") ? "w2" : "w1";

      assertThat(client.waitFor(30, TimeUnit.MINUTES)).as("build finished; stderr:\n%s", Cli.read(dir.resolve("build.err")))
          .isTrue();
      String out = Cli.read(dir.resolve("build.out"));
      String err = Cli.read(dir.resolve("build.err"));
      assertThat(client.exitValue()).as(err + "\n" + fleet.log(survivor)).isZero();
      Matcher key = Pattern.compile("(?m)^key +([0-9a-f]{64})$").matcher(out);
      assertThat(key.find()).as(out).isTrue();
      assertThat(out).containsPattern("(?m)^image +abfleet:sha256:[0-9a-f]{64}$")
          .contains("built on " + survivor + " (attempts: 2)");
      Matcher local = Pattern.compile("(?m)^local +(\\S+)$").matcher(out);
      assertThat(local.find()).as(out).isTrue();
      assertThat(Path.of(local.group(1))).isRegularFile();
      assertThat(Files.size(Path.of(local.group(1)))).isGreaterThan(1 << 20);
      assertThat(err).contains("lease lost on host " + victim);

      // ab --spec --controller: both arms built by the fleet (the patched one is the build above,
      // answered at once; the stock one a cache hit on the builder), then booted on it.
      Path spec = Files.writeString(dir.resolve("ab.yaml"), String.join("\n",
          "benchmark: fuse-metadata",
          "metrics: [metadata_stat]",
          "pairs: 6",
          "arms:",
          "  - {name: stock, role: baseline, build: {source: " + tarball + "}}",
          "  - {name: noted, role: candidate, build: {source: " + tarball + ", patches: [" + patch + "]}}",
          ""));
      Cli.Result ab = Cli.run(dir, 20, Map.of("ABFLEET_BUILD_HOME", dir.resolve("client-builds").toString()),
          "ab", "--spec", spec.toString(), "--controller", fleet.target(), "--format", "json");
      assertThat(ab.exit()).as(ab.err()).isZero();
      com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper()
          .readTree(ab.out());
      assertThat(report.get("pairs_done").asInt()).isEqualTo(6);
      assertThat(report.at("/builds/noted/key").asText()).isEqualTo(key.group(1));
      assertThat(report.at("/builds/stock/key").asText()).hasSize(64).isNotEqualTo(key.group(1));
      assertThat(ab.err()).contains("build stock: built on " + survivor);
    }
  }

  private static void awaitConnected(LocalProcesses fleet, List<String> hosts) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (hosts.stream().allMatch(h -> read(fleet, h).contains("connected to controller"))) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("workers did not connect: " + hosts.stream().map(h -> read(fleet, h)).toList());
  }

  /** The worker whose log says it compiles the build. */
  private static String awaitCompiling(LocalProcesses fleet, Process client, List<String> hosts) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
    while (System.nanoTime() < deadline) {
      for (String h : hosts) {
        if (COMPILING.matcher(read(fleet, h)).find()) {
          return h;
        }
      }
      assertThat(client.isAlive()).as("abfleet build still running: %s", Cli.read(fleet.dir.resolve("build.err")))
          .isTrue();
      Thread.sleep(1000);
    }
    throw new AssertionError("no worker compiled within 15 min: " + Cli.read(fleet.dir.resolve("build.err")));
  }

  private static String read(LocalProcesses fleet, String name) {
    try {
      return fleet.log(name);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
