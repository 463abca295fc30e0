package dev.abfleet.cli;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A controller that is stopped cleanly (its gRPC server shuts down and cancels the open watch
 * streams) and started again on the same store is a restart to {@code ab --controller}, as a
 * killed one is: the command rides it out, the experiment completes with the pairs asked and
 * the command exits 0. Before, the cancelled stream read as the user's Ctrl-C: the command
 * cancelled its own experiment and exited 3.
 */
class AbControllerStopTest {
  private static final Pattern SUBMITTED = Pattern.compile("experiment (\\S+) submitted to ");
  private static final int PAIRS = 8;

  @Test
  @Timeout(120)
  void aCleanControllerStopMidRunIsRiddenOutAndTheExperimentCompletes(@TempDir Path dir) throws Exception {
    H2Controller h2 = H2Controller.under(dir);
    String target = h2.target();
    AbCommand cmd = new AbCommand();
    new CommandLine(cmd).parseArgs("--controller", target, "--hypervisor", "sim", "--seed", "7",
        "--metrics", "metadata_stat", "--iterations", "3", "--pairs", String.valueOf(PAIRS),
        "--baseline", "base=" + SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri(),
        "--candidate", "cand=" + SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ExecutorService cli = Executors.newSingleThreadExecutor();
    ControllerNode controller = h2.start();
    // Real boot timing scaled by 0.02: a pair takes about half a second, so the stop lands mid-run.
    try (SimFleet fleet = SimFleet.start(target, 2, "sim-", SimModel.defaults().withTimeScale(0.02),
        Map.of(), dir.resolve("workers"), r -> { })) {
      Future<Integer> exit = cli.submit(() -> cmd.run(new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8)));
      String id = awaitSubmitted(err);
      int before = awaitPairs(target, id, 2);
      assertThat(before).as("the stop lands mid-run").isLessThan(PAIRS);

      controller.close();
      controller = h2.start();

      int code = exit.get(90, TimeUnit.SECONDS);
      String log = err.toString(StandardCharsets.UTF_8);
      assertThat(code).as(log).isEqualTo(ExitCodes.OK);
      assertThat(log).contains("abfleet: controller " + target + " unavailable")
          .doesNotContain("interrupted");
      // The watch that came back shows the boots run meanwhile and the final status.
      assertThat(log).contains("pair 7.1").contains("status: pairs 8/8, completed");
      try (ExperimentClient client = new ExperimentClient(target)) {
        Experiment done = client.get(id);
        assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
        assertThat(done.getPairsDone()).isEqualTo(PAIRS);
      }
    } finally {
      cli.shutdownNow();
      controller.close();
    }
  }

  private static String awaitSubmitted(ByteArrayOutputStream err) {
    Matcher m = Eventually.until("the submitted line", java.time.Duration.ofSeconds(30),
        () -> SUBMITTED.matcher(err.toString(StandardCharsets.UTF_8)), Matcher::find);
    return m.group(1);
  }

  private static int awaitPairs(String target, String id, int atLeast) {
    try (ExperimentClient client = new ExperimentClient(target)) {
      return Eventually.until("experiment " + id + " at " + atLeast + " pairs", java.time.Duration.ofSeconds(30),
          () -> client.get(id).getPairsDone(), done -> done >= atLeast);
    }
  }
}
