package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.worker.WorkerAgent;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A controller and an idle sim worker as separate processes: the worker's keepalive pings do
 * not get its connection closed. gRPC's default server policy (one ping per 5 minutes, the
 * third earlier one answered with GOAWAY too_many_pings) would end this worker's stream about
 * 30 s after it connected.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class WorkerKeepaliveE2ETest {
  private static final int KEEPALIVE_S = 10;
  /** Five keepalive intervals: long enough for the third early ping with margin. */
  private static final long IDLE_MS = 5 * KEEPALIVE_S * 1000L;

  @Test
  void idleWorkerPingingEveryTenSecondsKeepsItsFirstStream(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startSimWorker("w1", "-D" + WorkerAgent.KEEPALIVE_PROPERTY + "=" + KEEPALIVE_S);
      FleetProcessesE2ETest.awaitHosts(fleet, 1);

      Thread.sleep(IDLE_MS);

      String log = fleet.log("w1");
      assertThat(count(log, "connected to controller")).as("connects in the worker log:\n%s", log).isEqualTo(1);
      assertThat(log).doesNotContain("controller stream ended");
      assertThat(FleetProcessesE2ETest.hosts(fleet)).singleElement().extracting(Host::getConnected).isEqualTo(true);
    }
  }

  private static int count(String text, String phrase) {
    Matcher m = Pattern.compile(Pattern.quote(phrase)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
