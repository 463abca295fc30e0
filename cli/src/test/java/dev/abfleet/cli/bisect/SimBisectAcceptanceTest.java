package dev.abfleet.cli.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Acceptance: {@code abfleet bisect --hypervisor sim} over 16 SIMULATED kernels, a real
 * controller and four sim workers over loopback gRPC, finds the first kernel whose file carries
 * the injected -30% on seq_read, each probe being one sequential experiment. The command starts
 * the bisect on the controller (BisectService), which runs the probes; the command follows it.
 *
 * <p>Threshold 10% and looks 10, 20, 40: with four hosts the intervals include the host
 * cluster bootstrap; at 20 pairs a probe of an unchanged kernel still came back inconclusive
 * now and then (-2.5% [-11.2%, +2.0%]: an honest "ambiguous", but not what this test is
 * about). A clear regression still stops at 10 pairs; an unchanged kernel may need 40.
 */
class SimBisectAcceptanceTest {
  private static final Pattern PROBE = Pattern.compile(
      "probe #(\\d+) vs #(\\d+): (\\w+) .*, (\\d+) pairs, (\\d+) boots, experiment (\\S+): .*");
  /** 15 gaps between 16 kernels: ceil(log2(15)) probes at most. */
  private static final int MAX_PROBES = 4;

  @TempDir static Path home;
  static ControllerNode controller;
  static SimFleet fleet;

  @BeforeAll
  static void startFleet() {
    controller = ControllerNode.start(ControllerSettings.inMemory());
    fleet = SimFleet.start(address(), 4, "sim-", SimModel.defaults().withTimeScale(0.001), Map.of(),
        home.resolve("workers"), r -> { });
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
    controller.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 6, 13})
  @Timeout(60)
  void findsTheInjectedFirstBadOfSixteenSimKernels(int firstBad) throws Exception {
    List<String> args = new ArrayList<>(List.of("--controller", address(), "--metric", "seq_read",
        "--threshold", "0.10", "--looks", "10,20,40", "--hypervisor", "sim"));
    for (int i = 0; i < 16; i++) {
      Map<String, Double> effect = i >= firstBad ? Map.of("seq_read", 0.7) : Map.of();
      args.add(SimArtifacts.kernel(home.resolve("bad-from-" + firstBad), String.format("%02d", i), effect).getUri());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BisectCommand cmd = new BisectCommand();
    new CommandLine(cmd).parseArgs(args.toArray(String[]::new));

    int exit = cmd.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(report).isEqualTo(ExitCodes.OK);
    assertThat(report).as(report).startsWith(BisectCommand.SIMULATION)
        .contains("first regressing: #" + firstBad + " ").endsWith(BisectCommand.SIMULATION + "\n");
    List<Matcher> probes = report.lines().map(PROBE::matcher).filter(Matcher::matches).toList();
    assertThat(probes).as(report).hasSizeBetween(1, MAX_PROBES);
    assertThat(probes.stream().map(m -> m.group(6)).distinct()).hasSameSizeAs(probes);
    try (ExperimentClient client = new ExperimentClient(address())) {
      for (Matcher p : probes) {
        // One experiment per probe, carrying the looks and stopped by the controller at one of them.
        Experiment e = client.get(p.group(6));
        assertThat(e.getSpec().getPolicy().getLooksList()).containsExactly(10, 20, 40);
        assertThat(e.getState()).isEqualTo("completed");
        assertThat((int) e.getPairsDone()).isEqualTo(Integer.parseInt(p.group(4))).isIn(10, 20, 40);
        assertThat(e.getBootsCount()).isEqualTo(Integer.parseInt(p.group(5)));
        boolean bad = Integer.parseInt(p.group(1)) >= firstBad;
        assertThat(p.group(3)).as(p.group()).isEqualTo(bad ? "bad" : "good");
      }
    }
    // The endpoints' experiment first, then the probes.
    assertThat(report).contains("cost: " + (probes.size() + 1) + " probes, " + (probes.size() + 1) + " experiments,");
  }

  private static String address() {
    return "127.0.0.1:" + controller.grpcPort();
  }
}
