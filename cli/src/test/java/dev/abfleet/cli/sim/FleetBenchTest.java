package dev.abfleet.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code abfleet bench fleet}: its JSON, its controller's config, and one small real run. */
class FleetBenchTest {
  private static final Set<String> REQUIRED = Set.of("workers", "connect_s", "reconnects", "controller_cpu_cores",
      "controller_rss_mib", "gap_p50_ms", "gap_p99_ms", "makespan_ratio", "dropped_commands");

  @Test
  void writesEveryRequiredKeyAndNullForWhatWasNotMeasured() throws Exception {
    FleetFigures f = new FleetFigures(100, 2.5, 0, 0.12, Double.NaN, 410.5, 35, 20, 0, Double.NaN, Double.NaN,
        Double.NaN, 0, 3, 0, 0, 0, 0, "abfleet bench fleet --workers 100");

    JsonNode n = new ObjectMapper().readTree(f.json());

    List<String> keys = new ArrayList<>();
    n.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsAll(REQUIRED);
    assertThat(n.get("workers").asInt()).isEqualTo(100);
    assertThat(n.get("connect_s").asDouble()).isEqualTo(2.5);
    assertThat(n.get("controller_cpu_cores").asDouble()).isEqualTo(0.12);
    assertThat(n.get("gap_p99_ms").isNull()).isTrue();
    assertThat(n.get("makespan_ratio").isNull()).isTrue();
    assertThat(n.get("late_replies").asLong()).as("apart from dropped_commands").isEqualTo(3);
    assertThat(n.get("dropped_commands").asLong()).isZero();
  }

  @Test
  void startsTheControllerWithRaisedLimitsItsOwnStoreAndTheAskedHeartbeat(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("fleet.yaml");
    Files.writeString(file, FleetBench.fleetYaml(5000, 17070, 19464, dir));

    FleetConfig.Controller c = FleetConfigLoader.load(file).controller();

    assertThat(c.heartbeatIntervalMs()).isEqualTo(5000);
    assertThat(c.grpcPort()).isEqualTo(17070);
    assertThat(c.metricsPort()).isEqualTo(19464);
    assertThat(c.limits().callsPerSecond()).isEqualTo(1_000_000);
    assertThat(c.limits().workerMessagesPerSecond()).isEqualTo(1_000_000);
  }

  @Test
  void measuresASmallFleetRunningTwoExperiments() throws Exception {
    // 20 hosts and 2 x 20 pairs: most hosts run two blocks or more, so there are gaps to measure.
    FleetBench.Options o = new FleetBench.Options(20, 2, 20, 1000, 2, 0.01, 1, 5, 200, 300, false);
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    JsonNode n = new ObjectMapper().readTree(
        FleetBench.run(o, new PrintStream(err, true, StandardCharsets.UTF_8)).json());

    List<String> keys = new ArrayList<>();
    n.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsAll(REQUIRED);
    assertThat(n.get("experiments_completed").asInt()).as("completed experiments; progress:\n%s", err).isEqualTo(2);
    assertThat(n.get("workers").asInt()).isEqualTo(20);
    assertThat(n.get("connect_s").asDouble()).isBetween(0.0, 120.0);
    assertThat(n.get("reconnects").asLong()).isZero();
    assertThat(n.get("controller_cpu_cores").asDouble()).isBetween(0.0, 2.5);
    assertThat(n.get("controller_rss_mib").asDouble()).isBetween(32.0, 8192.0);
    assertThat(n.get("blocks").asLong()).isGreaterThan(20);
    assertThat(n.get("gap_p50_ms").asDouble()).isBetween(0.0, 10_000.0);
    assertThat(n.get("gap_p99_ms").asDouble()).isGreaterThanOrEqualTo(n.get("gap_p50_ms").asDouble());
    assertThat(n.get("makespan_ratio").asDouble()).isBetween(0.5, 5.0);
    assertThat(n.get("dropped_commands").asLong()).isZero();
    assertThat(n.get("leased_after").asLong()).isZero();
    assertThat(n.get("list_hosts_failures").asLong()).isZero();
  }
}
