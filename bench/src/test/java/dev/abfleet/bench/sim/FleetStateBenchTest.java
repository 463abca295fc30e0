package dev.abfleet.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetStateBenchTest {

  @Test
  void reportsATimeForEveryChangeAndRegistersEveryHostWithTheSchedulerActor(@TempDir Path dir) throws Exception {
    ControllerSettings settings = ControllerSettings.defaults()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")));

    FleetStateBench.Figures f = FleetStateBench.run(settings, 300);

    assertThat(f.hosts()).isEqualTo(300);
    for (double v : new double[] {f.connectNs(), f.leaseNs(), f.releaseNs(), f.disconnectNs(), f.registerMs()}) {
      assertThat(v).isPositive().isFinite();
    }
  }
}
