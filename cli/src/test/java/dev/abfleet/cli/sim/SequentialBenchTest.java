package dev.abfleet.cli.sim;

import dev.abfleet.bench.sim.SimModels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Sequential stopping on sim workers through a real controller, a small batch of each kind. */
class SequentialBenchTest {
  @TempDir Path home;

  @Test
  @Timeout(120)
  void largeEffectStopsBeforeTheLastLookAndSameKernelGetsNoFalseVerdict() throws Exception {
    SequentialBench.Options o = new SequentialBench.Options(8, 10, List.of(8, 16, 24), "metadata_stat", 0.7,
        0.05, 3, 120);
    SimModel model = SimModels.load(null, 0.005).withSeed(3);

    SequentialBench.Result r = SequentialBench.run(o, model, home, new PrintStream(new ByteArrayOutputStream()));

    assertThat(r.ab().experiments()).hasSize(10).allSatisfy(e -> {
      assertThat(e.getState()).isEqualTo("completed");
      assertThat(e.getOverall()).isEqualTo("regressed");
      assertThat(e.getPairsDone()).isLessThan(24);
    });
    assertThat(r.aa().experiments()).extracting(Experiment::getState).containsOnly("completed");
    assertThat(r.aa().claimedChange()).as("A/A experiments with a false verdict").isLessThanOrEqualTo(2);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SequentialBench.print(o, "model", 0.005, r, new PrintStream(out, true, StandardCharsets.UTF_8));
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("SIMULATION: ")
        .contains("PASS A/B with a large effect stops before max_pairs (24)");
  }

  @Test
  void wilsonIntervalMatchesTheReferenceValues() {
    // scipy.stats.binomtest(3, 40).proportion_ci(method="wilson"): (0.0258360258, 0.1986423352)
    double[] ci = dev.abfleet.bench.calibrate.Wilson.interval(3, 40);
    assertThat(ci[0]).isCloseTo(0.0258360258, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(ci[1]).isCloseTo(0.1986423352, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(dev.abfleet.bench.calibrate.Wilson.interval(0, 40)[0]).isZero();
  }
}
