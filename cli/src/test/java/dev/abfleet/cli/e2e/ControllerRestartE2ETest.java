package dev.abfleet.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Main;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.sim.SimArtifacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code ab --controller --gate} as its own process while the controller process is killed
 * (SIGKILL) mid-experiment and started again on the same home: ab rides out the restart, says
 * so, prints the report and exits 0; the experiment ends with exactly the requested pairs. Sim
 * workers (one {@code sim-fleet} process) keep boots short; the processes are real.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class ControllerRestartE2ETest {
  private static final int PAIRS = 24;

  @Test
  @Timeout(300)
  void abRidesOutAControllerKilledAndRestartedMidRun(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      Process controller = fleet.startController();
      fleet.startSimFleet(2, 0.1);
      String base = SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri();
      String cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri();
      Process ab = Cli.start(dir, "ab", "ab", "--controller", fleet.target(), "--hypervisor", "sim",
          "--baseline", "base=" + base, "--candidate", "cand=" + cand, "--pairs",
          String.valueOf(PAIRS), "--metrics", "metadata_stat", "--iterations", "3", "--gate",
          "--format", "json");
      String id = AbSubmissions.awaitSubmitted(fleet, ab, Duration.ofSeconds(60));
      AbSubmissions.awaitRunningPairs(fleet, id, 4, Duration.ofSeconds(60));

      controller.destroyForcibly(); // kill -9: no shutdown, no goodbye on any stream
      controller.waitFor(10, TimeUnit.SECONDS);
      // Restarted once ab has seen the controller gone, so that it rides out an outage it noticed.
      Eventually.until("ab noticing the controller gone", Duration.ofSeconds(60), () -> fleet.log("ab"),
          log -> log.contains("retrying for up to"));
      fleet.startController();

      assertThat(ab.waitFor(240, TimeUnit.SECONDS)).as("ab finished; stderr:\n%s",
          fleet.log("ab")).isTrue();
      String err = fleet.log("ab");
      // The restart must not turn into the gate's exit code: the exit is the gate the report
      // itself states (pass 0; fail 1, an A/A may regress at alpha; inconclusive 4).
      JsonNode report = new ObjectMapper().readTree(Cli.read(dir.resolve("ab.out")));
      assertThat(ab.exitValue()).as(err).isEqualTo(
          ExitCodes.ofGate(report.path("gate").asText(""), report.path("overall").asText("")));
      assertThat(err).contains("unavailable").contains("retrying for up to 10 min")
          .contains("is back after").doesNotContain("Exception").doesNotContain("\tat ");
      assertThat(Cli.read(dir.resolve("ab.out"))).contains("\"experiment\" : \"" + id + "\"")
          .contains("\"state\" : \"completed\"");
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        AbSubmissions.assertEveryPairOnce(client.get(id), PAIRS);
      }
    }
  }
}
