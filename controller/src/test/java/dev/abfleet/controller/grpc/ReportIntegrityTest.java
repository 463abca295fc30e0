package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A worker may report only runs of blocks leased to its own stream, under their lease epoch, in
 * its own name: forged reports are refused before the experiment, acknowledged as refused,
 * counted per host and reason, and never recorded.
 */
class ReportIntegrityTest extends ControllerNodeTest {
  private static final double FORGED_VALUE = 1e9;

  @Test
  void refusesAndCountsReportsForBlocksNotLeasedToTheStream() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      // The forger holds every block it gets without answering; the honest worker answers all.
      FakeWorker forger = new FakeWorker(node, "forger", 1.0, 0, false).start();
      await(() -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() == 1);
      String id = submit(client, "integrity", 6);
      await(() -> !forger.assignments.isEmpty());
      FakeWorker honest = FakeWorker.connect(node, "honest", 1.0);
      await(() -> !honest.assignments.isEmpty());

      BlockAssignment own = forger.assignments.get(0);
      BlockAssignment others = honest.assignments.get(0);
      // A run of another host's block, under that block's own (valid) epoch.
      forger.send(forged(others, others.getRuns(0).getRunId(), others.getLeaseEpoch(), "forger"));
      // A run of its own block under an older epoch.
      forger.send(forged(own, own.getRuns(0).getRunId(), own.getLeaseEpoch() - 1, "forger"));
      // A run of its own block, current epoch, in another host's name.
      forger.send(forged(own, own.getRuns(0).getRunId(), own.getLeaseEpoch(), "honest"));
      await(() -> refusals(forger).size() == 3);
      assertThat(refusals(forger)).containsExactlyInAnyOrder(
          others.getRuns(0).getRunId() + ": unleased_block",
          own.getRuns(0).getRunId() + ": stale_epoch",
          own.getRuns(0).getRunId() + ": wrong_host");
      assertThat(node.metrics().rejectedReports("forger", "unleased_block")).isEqualTo(1);
      assertThat(node.metrics().rejectedReports("forger", "stale_epoch")).isEqualTo(1);
      assertThat(node.metrics().rejectedReports("forger", "wrong_host")).isEqualTo(1);
      assertThat(node.metrics().rejectedReports("honest", "unleased_block")).isZero();
      await(() -> rejectedOf(client.listHosts(ListHostsRequest.getDefaultInstance())
          .getHostsList(), "forger") == 3);
      assertThat(rejectedOf(client.listHosts(ListHostsRequest.getDefaultInstance())
          .getHostsList(), "honest")).isZero();

      // The forger's held block goes back to the queue when it leaves; the honest host ends it.
      forger.drop();
      Experiment done = awaitExperiment(client, id, e -> e.getState().equals("completed"),
          Duration.ofSeconds(30));
      assertThat(done.getBootsList()).allSatisfy(boot -> {
        assertThat(boot.getHostId()).isEqualTo("honest");
        assertThat(boot.getSamplesList()).extracting(MetricSample::getValue)
            .doesNotContain(FORGED_VALUE);
      });
      assertPairsBackToBack(done);
      // Every honest report was recorded once: no run id twice, one boot per reported run.
      assertThat(done.getBootsList().stream().map(Boot::getRunId).distinct())
          .hasSize(done.getBootsCount());
      assertThat(refusals(honest)).isEmpty();
      honest.close();
      forger.close();
      channel.shutdownNow();
    }
  }

  private static WorkerMessage forged(BlockAssignment block, String runId, long epoch, String hostId) {
    return WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder().setRunId(runId)
        .setExperimentId(block.getExperimentId()).setBlockId(block.getBlockId())
        .setLeaseEpoch(epoch)
        .setTelemetry(RunTelemetry.newBuilder().setHostId(hostId).setHypervisor("qemu")
            .setAccelerator("tcg").setBootMs(900).setRunMs(4000))
        .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(FORGED_VALUE)
            .setUnit("ops/s").setBetter("higher"))
        .addSamples(MetricSample.newBuilder().setMetric("seq_read").setValue(FORGED_VALUE)
            .setUnit("MiB/s").setBetter("higher")))
        .build();
  }

  /** "run id: reason" of every refused acknowledgement the worker received. */
  private static List<String> refusals(FakeWorker worker) {
    return worker.received.stream().filter(ControllerMessage::hasReportAck)
        .map(ControllerMessage::getReportAck).filter(ack -> !ack.getRefused().isEmpty())
        .map(ack -> ack.getRunId() + ": " + ack.getRefused()).toList();
  }

  private static long rejectedOf(List<Host> hosts, String hostId) {
    return hosts.stream().filter(h -> h.getHostId().equals(hostId)).findFirst()
        .map(Host::getRejectedReports).orElse(-1L);
  }

  private static void await(BooleanSupplier condition) {
    Eventually.await("condition", Duration.ofSeconds(20), condition);
  }
}
