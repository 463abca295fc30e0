package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.testkit.PacedWorker;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Priorities over real gRPC: workers whose boots take time, experiments of different priority. */
class PreemptionTest extends ControllerNodeTest {
  static final long BOOT_MS = 400;

  ControllerNode node;
  ManagedChannel channel;
  final List<PacedWorker> workers = new ArrayList<>();

  @BeforeEach
  void start() {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    workers.add(PacedWorker.connect(ControllerNodeTest.channel(node), "h1", BOOT_MS));
    workers.add(PacedWorker.connect(ControllerNodeTest.channel(node), "h2", BOOT_MS));
  }

  @AfterEach
  void stop() {
    workers.forEach(PacedWorker::close);
    channel.shutdownNow();
    node.close();
  }

  String submit(String id, String priority, int pairs) {
    return client(channel).submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id)
        .setSpec(spec(pairs).toBuilder().setPriority(priority)).build()).getExperimentId();
  }

  long bootsOf(String experimentId) {
    return workers.stream().flatMap(w -> w.boots.stream())
        .filter(b -> b.experimentId().equals(experimentId)).count();
  }

  @Test
  void prSubmittedWhileNightlyHoldsEveryHostStartsWithinOneBootAndFinishesFirst() throws Exception {
    submit("e-night", "nightly", 8);
    Eventually.await("3 nightly boots", java.time.Duration.ofSeconds(5), () -> bootsOf("e-night") >= 3);
    assertThat(workers).allSatisfy(w -> assertThat(w.boots).isNotEmpty());

    long submitted = System.currentTimeMillis();
    submit("e-pr", "pr", 6);
    Experiment pr = awaitExperiment(client(channel), "e-pr",
        e -> e.getState().equals("completed"), Duration.ofSeconds(30));
    Experiment night = client(channel).getExperiment(
        dev.abfleet.proto.fleet.v1.GetExperimentRequest.newBuilder().setExperimentId("e-night").build());

    long firstPrBoot = workers.stream().flatMap(w -> w.boots.stream())
        .filter(b -> b.experimentId().equals("e-pr")).mapToLong(PacedWorker.BootLog::startMs).min().orElseThrow();
    assertThat(firstPrBoot - submitted).as("pr waits at most one boot (plus slack)")
        .isLessThan(BOOT_MS + 600);
    assertThat(night.getState()).as("nightly still runs when pr is done").isEqualTo("running");
    assertThat(pr.getPairsDone()).isEqualTo(6);
    // Preemption stops a nightly block after its current boot. Rarely (a slow machine) a nightly
    // block ends on its own just as the pr arrives and the pr takes that host without one.
    boolean preempted = workers.stream().flatMap(w -> w.cancels.stream())
        .anyMatch(c -> c.getAfterCurrentBoot());

    Experiment nightDone = awaitExperiment(client(channel), "e-night",
        e -> !e.getState().equals("running"), Duration.ofSeconds(30));
    assertThat(nightDone.getState()).as("preemption is not held against the pair").isEqualTo("completed");
    if (preempted) {
      assertThat(nightDone.getRetriedBlocks()).as("the preempted block runs again").isGreaterThanOrEqualTo(1);
    }
    assertPairsBackToBack(nightDone);
  }
}
