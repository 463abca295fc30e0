package dev.abfleet.cli.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.cli.MainRun;
import dev.abfleet.cli.SimController;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.worker.sim.SimBootTiming;
import dev.abfleet.worker.sim.SimMetric;
import dev.abfleet.worker.sim.SimModel;
import dev.abfleet.worker.sim.SimNoise;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code calibrate --real --hypervisor sim} then {@code plan}, against a real in-process
 * controller and four sim workers over loopback gRPC.
 */
class SimCalibratePlanTest {
  /** Boot-to-boot lognormal sigma of every metric; nothing else varies (no host offsets, drift, outliers). */
  static final double BOOT_SIGMA = 0.04;

  @TempDir static Path workers;
  static SimController fleet;

  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  @BeforeAll
  static void startFleet() throws Exception {
    SimModel model = new SimModel(7, 0.001, SimModel.FLEETBENCH.stream()
        .map(m -> new SimMetric(m.name(), m.base(), m.unit(), m.better(), BOOT_SIGMA, 0)).toList(),
        SimBootTiming.defaults(), SimNoise.none(), 0);
    fleet = SimController.start(4, "sim-", model, workers);
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  static String address() {
    return fleet.address();
  }

  /** Runs {@code abfleet ARGS}, asserts exit 0, returns its stdout. */
  private static String abfleet(String... args) {
    MainRun.Result r = MainRun.run(args);
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    return r.out();
  }

  @Test
  @Timeout(120)
  void calibratesSimHostsAndPlansForThemLabelledAsSimulation() throws Exception {
    String table = abfleet("calibrate", "--real", "--controller", address(), "--hypervisor", "sim", "--experiments", "3",
        "--pairs", "8");

    assertThat(table).as(table).contains("sim/sim (SIMULATION)").contains(RealCalibration.SIMULATED_CLASSES)
        .contains("this run: 3 of 3 A/A experiments completed, 8 pairs each")
        .containsPattern("pairs for 4%\\n").contains("pairs for 4% (twice the noise threshold) at 80% power");
    Path file = NoiseStore.inHome(home.path()).file("sim/sim");
    JsonNode stored = new ObjectMapper().readTree(file.toFile());
    assertThat(stored.path("simulated").asBoolean()).isTrue();
    assertThat(stored.path("experiments").asLong()).isEqualTo(3);
    NoiseRecord record = NoiseStore.inHome(home.path()).load("sim/sim").orElseThrow();
    assertThat(record.simulated()).isTrue();
    // A paired log ratio of this model is BOOT_SIGMA * (Z1 - Z2): sd BOOT_SIGMA * sqrt(2) = 5.66%.
    // The sd of 24 such ratios lies within [0.481, 1.604] times that with probability 0.9999, so
    // the four metrics fail together by chance once in 2,500 runs (chi-square, 23 df:
    // sqrt(chi2.ppf(0.00005, 23) / 23) and sqrt(chi2.ppf(0.99995, 23) / 23), scipy).
    for (String metric : record.gating()) {
      var m = record.metric(metric);
      assertThat(m.pairs()).as(metric).isEqualTo(24);
      assertThat(m.pairedSd()).as(metric).isBetween(0.481 * BOOT_SIGMA * Math.sqrt(2), 1.604 * BOOT_SIGMA * Math.sqrt(2));
    }

    String plan = abfleet("plan", "--mde", "10%");
    assertThat(plan).as(plan).containsPattern("sim/sim \\(SIMULATION\\)\\s+metadata_stat\\s+\\d+\\.\\d%\\s+24\\s+\\d+\\n")
        .contains("SIMULATION: a class marked (SIMULATION) is of sim hosts: its pairs are planned from the sim"
            + " performance model's noise");
    assertThat(Files.list(file.getParent()).map(p -> p.getFileName().toString())).contains("sim_sim.json");
  }
}
