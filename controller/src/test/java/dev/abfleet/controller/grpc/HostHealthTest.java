package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.testkit.PacedWorker;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A host whose boots fail for the host's sake: pairs move to the good host, the bad one is quarantined. */
class HostHealthTest extends ControllerNodeTest {
  ControllerNode node;
  ManagedChannel channel;
  PacedWorker broken;
  PacedWorker good;

  @BeforeEach
  void start() throws InterruptedException {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    broken = new PacedWorker(ControllerNodeTest.channel(node), "h1", 50, run -> true).start();
    good = PacedWorker.connect(ControllerNodeTest.channel(node), "h2", 50);
    Eventually.await("2 hosts listed", java.time.Duration.ofSeconds(5), () -> hosts().size() >= 2);
  }

  @AfterEach
  void stop() {
    broken.close();
    good.close();
    channel.shutdownNow();
    node.close();
  }

  List<Host> hosts() {
    return client(channel).listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
  }

  @Test
  void infraFailuresMovePairsToAnotherHostAndQuarantineTheBrokenOne() throws Exception {
    String id = submit(client(channel), "e-infra", 6);

    Experiment done = awaitExperiment(client(channel), id, e -> !e.getState().equals("running"),
        Duration.ofSeconds(30));

    assertThat(done.getState()).isEqualTo("completed");
    assertThat(done.getBootsList()).extracting(Boot::getHostId).containsOnly("h2");
    // The session tells the scheduler a block is done only after its reports are handled, so
    // the third INFRA failure quarantines h1 before it could take a fourth block.
    assertThat(done.getRetriedBlocks()).isBetween(1, 3);
    Host h1 = hosts().stream().filter(h -> h.getHostId().equals("h1")).findFirst().orElseThrow();
    if (done.getRetriedBlocks() == 3) {
      assertThat(h1.getState()).isEqualTo("quarantined");
      assertThat(h1.getStateReason()).startsWith("3 INFRA failures in a row; last: qemu-system-x86_64: not found");
    } else {
      assertThat(h1.getInfraFailures()).isEqualTo(done.getRetriedBlocks());
    }
  }
}
