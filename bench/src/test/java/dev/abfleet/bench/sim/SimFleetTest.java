package dev.abfleet.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sim workers share connections and timer threads: an idle one costs no thread of its own. */
class SimFleetTest {

  @Test
  void sharesOneChannelPerFiftyWorkersAndNoThreadPerIdleWorker(@TempDir Path home) throws Exception {
    int before = Thread.activeCount();
    // Nothing listens on port 1: every link keeps reconnecting, as an idle worker's link keeps its stream.
    try (SimFleet fleet = SimFleet.start("127.0.0.1:1", 400, "t-", SimModel.defaults(), Map.of(), home, r -> { })) {
      Thread.sleep(1500);

      assertThat(fleet.size()).isEqualTo(400);
      assertThat(fleet.channels()).isEqualTo(8);
      // Before: two threads per worker (its link timer and its block executor), 800 here. gRPC's
      // own threads (event loops, its shared callback pool) do not grow with the workers.
      var names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
      assertThat(names).filteredOn(n -> n.startsWith("abfleet-link-") || n.equals("abfleet-block-executor")).isEmpty();
      assertThat(names).filteredOn(n -> n.startsWith("abfleet-sim-timer-")).hasSizeLessThanOrEqualTo(2);
      assertThat(Thread.activeCount() - before).isLessThan(200);
    }
  }
}
