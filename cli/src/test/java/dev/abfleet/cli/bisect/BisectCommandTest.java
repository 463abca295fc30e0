package dev.abfleet.cli.bisect;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.sim.SimArtifacts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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

/** The command's modes and input checks against a real controller (in-memory store, no workers). */
class BisectCommandTest {
  private static final Pattern STARTED = Pattern.compile("abfleet: bisect (b-[0-9a-f]{8}) started on the controller");

  private static BisectCommand parse(String... args) {
    BisectCommand cmd = new BisectCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd;
  }

  @Test
  @Timeout(60)
  void cancelStopsABisectAnotherCommandFollowsWhichThenExitsThree(@TempDir Path dir) throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory())) {
      String target = "127.0.0.1:" + controller.grpcPort();
      String k0 = SimArtifacts.kernel(dir, "00", Map.of()).getUri();
      String k1 = SimArtifacts.kernel(dir, "01", Map.of("seq_read", 0.7)).getUri();
      String k2 = SimArtifacts.kernel(dir, "02", Map.of("seq_read", 0.7)).getUri();
      // No worker: the endpoints' experiment waits for a host until the bisect is cancelled.
      BisectCommand follower = parse("--controller", target, "--metric", "seq_read", "--hypervisor", "sim", k0, k1, k2);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Future<Integer> exit = pool.submit(() -> follower.run(new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8)));
      String id = awaitStarted(err);
      String probe = "abfleet: bisect: experiment " + id + "-0-vs-2: #0 vs #2, looks at [20] pairs (SIMULATION)";
      awaitLine(err, probe);

      ByteArrayOutputStream cancelOut = new ByteArrayOutputStream();
      int cancelExit = parse("--controller", target, "--cancel", id)
          .run(new PrintStream(cancelOut, true, StandardCharsets.UTF_8), System.err);

      assertThat(cancelExit).isEqualTo(ExitCodes.OK);
      assertThat(cancelOut.toString(StandardCharsets.UTF_8))
          .isEqualTo("bisect " + id + ": cancelled (cancelled with abfleet bisect --cancel)\n");
      assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCodes.FAILED);
      assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(BisectCommand.SIMULATION)
          .contains("cancelled: cancelled with abfleet bisect --cancel\n", "cost: 0 probes, 0 experiments");
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains(probe, "abfleet: bisect " + id + " cancelled: cancelled with abfleet bisect --cancel");
      assertThatThrownBy(() -> parse("--controller", target, "--attach", "b-none").run(System.out, System.err))
          .isInstanceOf(Problem.class).hasMessageContaining("unknown bisect 'b-none'");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badInputIsNamedBeforeAnythingIsSent(@TempDir Path dir) throws Exception {
    String k0 = SimArtifacts.kernel(dir, "00", Map.of()).getUri();
    // Port 1: nothing listens there, and nothing may be dialled before the input is checked.
    List<List<String>> cases = List.of(
        List.of("--attach", "b-1", k0),
        List.of("--attach", "b-1", "--list"),
        List.of("--hypervisor", "sim", k0, k0),
        List.of("--metric", "seq_read", "--hypervisor", "sim", k0),
        List.of("--metric", "nope", "--hypervisor", "sim", k0, k0),
        List.of("--metric", "seq_read", "--hypervisor", "sim", "--looks", "10,5", k0, k0),
        List.of("--metric", "seq_read", "--hypervisor", "sim", "--fraction", "1.5", k0, k0),
        List.of("--metric", "seq_read", "--hypervisor", "sim", k0, dir.resolve("missing").toString()));
    List<String> expected = List.of("give one of KERNEL..., --attach ID, --cancel ID or --list",
        "give one of KERNEL...", "--metric: missing", "1 KERNEL given: pass at least 2", "--metric nope: benchmark",
        "--looks [10, 5]: expected ascending pair counts",
        "--fraction 1.5: expected a number in (0, 1), e.g. 0.5",
        "missing: kernel image " + dir.resolve("missing") + " does not exist");
    for (int i = 0; i < cases.size(); i++) {
      List<String> args = new java.util.ArrayList<>(List.of("--controller", "127.0.0.1:1"));
      args.addAll(cases.get(i));
      BisectCommand cmd = parse(args.toArray(String[]::new));
      assertThatThrownBy(() -> cmd.run(System.out, System.err)).as(args.toString())
          .isInstanceOf(Problem.class).hasMessageContaining(expected.get(i));
    }
  }

  private static void awaitLine(ByteArrayOutputStream err, String line) {
    Eventually.until("the line '" + line + "'", java.time.Duration.ofSeconds(15),
        () -> err.toString(StandardCharsets.UTF_8), out -> out.contains(line));
  }

  private static String awaitStarted(ByteArrayOutputStream err) {
    return Eventually.until("a bisect started", java.time.Duration.ofSeconds(15),
        () -> STARTED.matcher(err.toString(StandardCharsets.UTF_8)), Matcher::find).group(1);
  }
}
