package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentProgress;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.WatchExperimentRequest;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ExperimentFlowTest extends ControllerNodeTest {
  ControllerNode node;
  ManagedChannel channel;
  ExperimentServiceGrpc.ExperimentServiceBlockingStub client;
  final List<FakeWorker> workers = new ArrayList<>();

  @BeforeEach
  void start() {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    client = client(channel);
  }

  @AfterEach
  void stop() {
    workers.forEach(FakeWorker::close);
    channel.shutdownNow();
    node.close();
  }

  FakeWorker worker(FakeWorker w) {
    workers.add(w);
    return w;
  }

  void awaitHosts(int online) {
    Eventually.until(online + " hosts online", java.time.Duration.ofSeconds(5),
        () -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList().stream()
            .filter(h -> !h.getState().equals("offline")).count(), n -> n == online);
  }

  @Test
  void twoWorkersCompleteSixPairsAndTheSlowerCandidateRegresses() throws Exception {
    worker(FakeWorker.connect(node, "h1", 0.7));
    worker(FakeWorker.connect(node, "h2", 0.7));
    awaitHosts(2);

    String id = submit(client, "", 6);
    Experiment done = awaitExperiment(client, id, e -> e.getState().equals("completed"), Duration.ofSeconds(30));

    assertThat(id).matches("e-[0-9a-f]{8}");
    assertPairsBackToBack(done);
    assertThat(done.getBootsList()).extracting(Boot::getHostId).contains("h1", "h2");
    assertThat(comparison(done, "metadata_stat").getVerdict()).isEqualTo("regressed");
    assertThat(comparison(done, "metadata_stat").getChange()).isBetween(-0.33, -0.27);
    assertThat(done.getOverall()).isEqualTo("regressed");
  }

  @Test
  void pairOfADroppedWorkerRerunsElsewhereWithoutDuplicates() throws Exception {
    FakeWorker dropping = worker(new FakeWorker(node, "h1", 0.7, Integer.MAX_VALUE, true).start());
    awaitHosts(1);
    String id = submit(client, "e-drop", 6);
    Eventually.await("a block assigned", java.time.Duration.ofSeconds(5), () -> !dropping.assignments.isEmpty());
    assertThat(dropping.assignments).hasSize(1);
    worker(FakeWorker.connect(node, "h2", 0.7));

    Experiment done = awaitExperiment(client, id, e -> e.getState().equals("completed"), Duration.ofSeconds(30));

    assertPairsBackToBack(done);
    assertThat(done.getBootsList()).extracting(Boot::getHostId).containsOnly("h2");
    assertThat(done.getRetriedBlocks()).isEqualTo(1);
    List<Host> hosts = client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
    assertThat(hosts).filteredOn(h -> h.getHostId().equals("h1")).extracting(Host::getState)
        .containsExactly("offline");
  }

  @Test
  void watchStreamsUntilTheExperimentCompletes() throws Exception {
    worker(FakeWorker.connect(node, "h1", 1.0));
    awaitHosts(1);
    String id = submit(client, "e-watch", 6);

    List<ExperimentProgress> updates = new ArrayList<>();
    client.withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
        .watchExperiment(WatchExperimentRequest.newBuilder().setExperimentId(id).build())
        .forEachRemaining(updates::add);

    assertThat(updates).isNotEmpty();
    assertThat(updates.get(updates.size() - 1).getExperiment().getState()).isEqualTo("completed");
  }

  @Test
  void aWatcherGetsARunningExperimentAtMostOnceASecondAndItsEndAtOnce() throws Exception {
    // A block every 100 ms: the experiment changes ten times a second for about 3 s.
    worker(new FakeWorker(node, "h1", 1.0, Integer.MAX_VALUE, false).withBlockTime(Duration.ofMillis(100)).start());
    awaitHosts(1);
    String id = submit(client, "e-pace", 30);

    List<Long> arrivals = new ArrayList<>();
    List<ExperimentProgress> updates = new ArrayList<>();
    client.withDeadlineAfter(60, java.util.concurrent.TimeUnit.SECONDS)
        .watchExperiment(WatchExperimentRequest.newBuilder().setExperimentId(id).build())
        .forEachRemaining(u -> {
          arrivals.add(System.nanoTime());
          updates.add(u);
        });

    assertThat(updates.get(updates.size() - 1).getExperiment().getState()).isEqualTo("completed");
    assertThat(updates.get(updates.size() - 1).getExperiment().getBootsList())
        .as("boots converted once and reused across messages read as a fresh conversion")
        .isEqualTo(client.getExperiment(dev.abfleet.proto.fleet.v1.GetExperimentRequest.newBuilder()
            .setExperimentId(id).build()).getBootsList());
    List<Integer> pairsSeen = updates.stream().map(u -> u.getExperiment().getPairsDone()).toList();
    assertThat(pairsSeen).as("progress messages in between").hasSizeGreaterThan(2);
    // The last message (the end) may follow its predecessor at once; the others are paced.
    for (int i = 1; i < arrivals.size() - 1; i++) {
      assertThat(Duration.ofNanos(arrivals.get(i) - arrivals.get(i - 1)))
          .as("gap before progress message %d of %d (pairs done %s)", i, arrivals.size(), pairsSeen)
          .isGreaterThan(ExperimentServiceImpl.PROGRESS_EVERY.multipliedBy(8).dividedBy(10));
    }
  }

  @Test
  void acknowledgesEveryRunReportOnceItsExperimentHandledIt() throws Exception {
    FakeWorker w = worker(FakeWorker.connect(node, "h1", 1.0));
    awaitHosts(1);
    String id = submit(client, "e-ack", 6);
    client.withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
        .watchExperiment(WatchExperimentRequest.newBuilder().setExperimentId(id).build())
        .forEachRemaining(u -> { });
    java.util.Set<String> runs = new java.util.HashSet<>();
    w.assignments.forEach(b -> b.getRunsList().forEach(r -> runs.add(r.getRunId())));
    java.util.Set<String> acked = new java.util.HashSet<>();
    Eventually.await("every run acknowledged", java.time.Duration.ofSeconds(5), () -> {
      acked.clear();
      w.received.stream().filter(m -> m.hasReportAck()).forEach(m -> acked.add(m.getReportAck().getRunId()));
      return acked.containsAll(runs);
    });
    assertThat(runs).hasSize(12);
    assertThat(acked).isEqualTo(runs);
  }

  @Test
  void sequentialExperimentStopsAtTheFirstLookWhenTheEffectIsLarge() throws Exception {
    worker(FakeWorker.connect(node, "h1", 0.7));
    awaitHosts(1);
    ExperimentSpec spec = ControllerNodeTest.spec(0).toBuilder()
        .setPolicy(Policy.newBuilder().setSeed(17).addGatingMetrics("metadata_stat").addLooks(10).addLooks(20))
        .build();
    String id = client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId("e-seq")
        .setSpec(spec).build()).getExperimentId();
    Experiment done = ControllerNodeTest.awaitExperiment(client, id,
        e -> e.getState().equals("completed"), Duration.ofSeconds(60));
    assertThat(done.getPairsWanted()).isEqualTo(20);
    assertThat(done.getPairsDone()).as("stopped at the first look").isEqualTo(10);
    assertThat(done.getSpec().getPolicy().getLooksList()).containsExactly(10, 20);
    assertThat(done.getComparisonsList()).filteredOn(c -> c.getMetric().equals("metadata_stat"))
        .extracting(c -> c.getVerdict()).containsExactly("regressed");
  }

  @Test
  void sequentialExperimentWithoutAnEffectRunsToItsLastLook() throws Exception {
    worker(FakeWorker.connect(node, "h1", 1.0));
    awaitHosts(1);
    ExperimentSpec spec = ControllerNodeTest.spec(0).toBuilder()
        .setPolicy(Policy.newBuilder().setSeed(17).addGatingMetrics("metadata_stat").addLooks(4).addLooks(8))
        .build();
    String id = client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId("e-seq-aa")
        .setSpec(spec).build()).getExperimentId();
    Experiment done = ControllerNodeTest.awaitExperiment(client, id,
        e -> e.getState().equals("completed"), Duration.ofSeconds(60));
    assertThat(done.getPairsDone()).isEqualTo(8);
    assertThat(done.getComparisonsList()).extracting(c -> c.getVerdict()).doesNotContain("regressed", "improved");
  }

  @Test
  void ceilingArmIsComparedButNeverGatesAndCandidatesAreReportedAsAFractionOfIt() throws Exception {
    worker(FakeWorker.connect(node, "h1", 0.7));
    awaitHosts(1);
    ExperimentSpec spec = ControllerNodeTest.spec(6).toBuilder()
        .addArms(ControllerNodeTest.arm("ceil", "ceiling", "c"))
        .build();
    String id = client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId("e-ceil")
        .setSpec(spec).build()).getExperimentId();
    Experiment done = ControllerNodeTest.awaitExperiment(client, id,
        e -> e.getState().equals("completed"), Duration.ofSeconds(60));
    assertThat(done.getBootsList()).hasSize(18);
    var candStat = done.getComparisonsList().stream()
        .filter(c -> c.getArm().equals("cand") && c.getMetric().equals("metadata_stat")).findFirst().orElseThrow();
    var ceilStat = done.getComparisonsList().stream()
        .filter(c -> c.getArm().equals("ceil") && c.getMetric().equals("metadata_stat")).findFirst().orElseThrow();
    assertThat(ceilStat.getGating()).isFalse();
    assertThat(ceilStat.getOfCeiling()).isZero();
    assertThat(candStat.getGating()).isTrue();
    assertThat(candStat.getOfCeiling()).isCloseTo(0.7, org.assertj.core.data.Offset.offset(0.05));
  }

  @Test
  void cancellingAnExperimentStopsItsBlocksOnTheWorkers() throws Exception {
    FakeWorker holding = worker(new FakeWorker(node, "h1", 1.0, 0, false).start());
    awaitHosts(1);
    String id = submit(client, "e-stop", 6);
    Eventually.await("a block assigned", java.time.Duration.ofSeconds(5), () -> !holding.assignments.isEmpty());
    assertThat(holding.assignments).hasSize(1);
    String blockId = holding.assignments.get(0).getBlockId();
    client.cancelExperiment(dev.abfleet.proto.fleet.v1.CancelExperimentRequest.newBuilder()
        .setExperimentId(id).setReason("no longer needed").build());
    Eventually.await("the worker told to stop block " + blockId, java.time.Duration.ofSeconds(5), () -> holding.received.stream()
        .anyMatch(m -> m.hasCancel() && m.getCancel().getBlockId().equals(blockId) && !m.getCancel().getAfterCurrentBoot()));
  }
}
