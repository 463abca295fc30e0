package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.testkit.PacedWorker;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Experiments of one priority share a host block by block; clients see the line and an ETA. */
class FairShareTest extends ControllerNodeTest {
  ControllerNode node;
  ManagedChannel channel;
  PacedWorker worker;

  @BeforeEach
  void start() {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    worker = PacedWorker.connect(ControllerNodeTest.channel(node), "h1", 150);
  }

  @AfterEach
  void stop() {
    worker.close();
    channel.shutdownNow();
    node.close();
  }

  void submit(String id, int pairs) {
    client(channel).submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id)
        .setSpec(spec(pairs).toBuilder().setPriority("adhoc")).build());
  }

  Experiment get(String id) {
    return client(channel).getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build());
  }

  @Test
  void twoEqualExperimentsOnOneHostInterleaveBlockByBlock() throws Exception {
    submit("e-a", 6);
    Eventually.await("a first boot", java.time.Duration.ofSeconds(2), () -> !worker.boots.isEmpty());
    submit("e-b", 6);
    awaitExperiment(client(channel), "e-a", e -> e.getState().equals("completed"), Duration.ofSeconds(30));
    awaitExperiment(client(channel), "e-b", e -> e.getState().equals("completed"), Duration.ofSeconds(30));

    List<String> blockOwners = new ArrayList<>();
    String lastBlock = "";
    for (PacedWorker.BootLog boot : worker.boots) {
      if (!boot.blockId().equals(lastBlock)) {
        blockOwners.add(boot.experimentId());
        lastBlock = boot.blockId();
      }
    }
    // e-a ran alone until e-b arrived (one block, or more when the submission was slow); from
    // then on the two take turns, block by block, until e-a has none left.
    int firstB = blockOwners.indexOf("e-b");
    assertThat(firstB).as(blockOwners.toString()).isPositive();
    int aLeft = 6 - firstB;
    List<String> expected = new ArrayList<>(blockOwners.subList(0, firstB));
    for (int b = 0; b < 6; b++) {
      expected.add("e-b");
      if (aLeft-- > 0) {
        expected.add("e-a");
      }
    }
    assertThat(blockOwners).containsExactlyElementsOf(expected);
  }

  @Test
  void waitingExperimentShowsItsPlaceInLineAndARunningOneAnEta() throws Exception {
    submit("e-a", 8);
    awaitExperiment(client(channel), "e-a", e -> e.getPairsDone() >= 1, Duration.ofSeconds(30));
    dev.abfleet.proto.fleet.v1.DrainHostRequest drain =
        dev.abfleet.proto.fleet.v1.DrainHostRequest.newBuilder().setHostId("h1").build();
    dev.abfleet.proto.fleet.v1.FleetServiceGrpc.newBlockingStub(channel).drainHost(drain);
    submit("e-b", 6);
    awaitExperiment(client(channel), "e-a", e -> e.getQueuePosition() > 0, Duration.ofSeconds(10));

    Experiment a = get("e-a");
    Experiment b = get("e-b");

    assertThat(b.getQueuePosition()).as("e-a was served last: e-b is next").isEqualTo(1);
    assertThat(a.getQueuePosition()).isEqualTo(2);
    assertThat(a.getEtaSeconds()).as("pairs left x observed block time, one host").isPositive();
    assertThat(b.getEtaSeconds()).as("no block of e-b completed yet").isZero();
  }
}
