package dev.abfleet.cli.e2e;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Main;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.TestPostgres;
import dev.abfleet.worker.sim.SimArtifacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The controller process is killed with SIGKILL three times during one experiment, on H2 and
 * on PostgreSQL, and started again on the same store each time; the experiment resumes after
 * every restart and its boots are exactly the requested pairs, each run once. Snapshots are
 * taken every 20 events, so recoveries go through a snapshot. Sim workers, real processes.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class ControllerCrashE2ETest {
  private static final int PAIRS = 30;
  private static final int[] KILL_AT_PAIRS = {4, 10, 16};
  private static final String PASSWORD_ENV = "ABFLEET_E2E_PG_PASSWORD";

  @Test
  @Timeout(420)
  void experimentOnH2SurvivesThreeKills(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("fleet.yaml"), """
        controller:
          store:
            kind: h2
            snapshot_every: 20
        """);
    survivesThreeKills(dir, config, Map.of());
  }

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  @Timeout(420)
  void experimentOnPostgresSurvivesThreeKills(TestPostgres.Source source, @TempDir Path dir) throws Exception {
    try (TestPostgres.Database db = TestPostgres.create(source)) {
      Path config = Files.writeString(dir.resolve("fleet.yaml"), """
          controller:
            store:
              kind: postgres
              url: %s
              user: %s
              password_env: %s
              snapshot_every: 20
          """.formatted(db.url(), db.user(), PASSWORD_ENV));
      survivesThreeKills(dir, config, Map.of(PASSWORD_ENV, db.password()));
    }
  }

  private static void survivesThreeKills(Path dir, Path config, Map<String, String> env) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      Process controller = fleet.startController("controller-0", config, env);
      fleet.startSimFleet(2, 0.1);
      String base = SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri();
      String cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri();
      Process ab = Cli.start(dir, "ab", "ab", "--controller", fleet.target(), "--hypervisor", "sim",
          "--baseline", "base=" + base, "--candidate", "cand=" + cand, "--pairs",
          String.valueOf(PAIRS), "--metrics", "metadata_stat", "--iterations", "3",
          "--format", "json");
      String id = AbSubmissions.awaitSubmitted(fleet, ab, Duration.ofSeconds(60));

      for (int kill = 0; kill < KILL_AT_PAIRS.length; kill++) {
        AbSubmissions.awaitRunningPairs(fleet, id, KILL_AT_PAIRS[kill], Duration.ofSeconds(120));
        controller.destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye on any stream
        assertThat(controller.waitFor(10, TimeUnit.SECONDS)).as("controller killed").isTrue();
        controller = fleet.startController("controller-" + (kill + 1), config, env);
      }

      assertThat(ab.waitFor(300, TimeUnit.SECONDS)).as("ab finished; stderr:\n%s", fleet.log("ab")).isTrue();
      assertThat(ab.exitValue()).as(fleet.log("ab")).isEqualTo(ExitCodes.OK);
      assertThat(fleet.log("ab")).contains("is back after").doesNotContain("\tat ");
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        AbSubmissions.assertEveryPairOnce(client.get(id), PAIRS);
      }
    }
  }
}
