package dev.abfleet.worker.link;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutboxTest {
  private static final Status TOO_LARGE =
      Status.CANCELLED.withDescription("RST_STREAM closed stream. HTTP/2 error code: CANCEL");

  private final Outbox outbox = new Outbox(10_000);

  @Test
  void shrinksAReportTooLargeToSendIntoAHarnessFailureWithoutSamples() {
    outbox.add(result("r1", 2_000));

    WorkerMessage sent = outbox.poll().orElseThrow();

    assertThat(sent.getRunFailure().getRunId()).isEqualTo("r1");
    assertThat(sent.getRunFailure().getLeaseEpoch()).isEqualTo(4);
    assertThat(sent.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(sent.getRunFailure().getMessage())
        .contains("over the 10000 bytes a worker sends in one message").contains("its 2000 samples were dropped");
  }

  @Test
  void handsADeferredReportOutAgainFirstAndUnchanged() {
    outbox.add(result("r1", 3));
    outbox.add(result("r2", 1));
    WorkerMessage first = outbox.poll().orElseThrow();

    assertThat(outbox.deferred("r1")).isTrue();

    assertThat(outbox.pending()).isEqualTo(2);
    assertThat(outbox.poll()).contains(first);
    assertThat(runIds(drain())).containsExactly("r2");
  }

  @Test
  void ignoresADeferralOfAReportNotOut() {
    outbox.add(result("r1", 1));
    drain();
    outbox.acknowledged("r1");

    assertThat(outbox.deferred("r1")).isFalse();
    assertThat(outbox.pending()).isZero();
  }

  @Test
  void sendsOneReportAtATimeOnceTheControllerRefusedOne() {
    List.of("r1", "r2", "r3").forEach(id -> outbox.add(result(id, 1)));
    drain();

    outbox.streamEnded(TOO_LARGE);

    assertThat(runIds(drain())).containsExactly("r1");
    outbox.acknowledged("r1");
    assertThat(runIds(drain())).containsExactly("r2");
  }

  @Test
  void shrinksTheReportRefusedWhileAloneAndDeliversTheReportsBehindIt() {
    outbox.add(result("r1", 1));
    outbox.add(result("r2", 100));
    outbox.add(result("r3", 1));
    drain();
    outbox.streamEnded(TOO_LARGE);
    acknowledge(drain());

    assertThat(runIds(drain())).containsExactly("r2");
    outbox.streamEnded(TOO_LARGE);

    WorkerMessage shrunk = drain().get(0);
    assertThat(shrunk.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(shrunk.getRunFailure().getMessage())
        .startsWith("the controller refused the report (CANCELLED: RST_STREAM closed stream")
        .endsWith("its 100 samples were dropped");
    acknowledge(List.of(shrunk));
    List<WorkerMessage> rest = drain();
    assertThat(runIds(rest)).containsExactly("r3");
    acknowledge(rest);
    assertThat(outbox.pending()).isZero();
    assertThat(outbox.isolating()).isFalse();
  }

  @Test
  void dropsAShrunkReportTheControllerRefusesAgain() {
    outbox.add(result("r1", 1));
    outbox.add(result("r2", 1));
    Status invalid = Status.INVALID_ARGUMENT.withDescription("bad report");
    drain();
    outbox.streamEnded(invalid);
    drain();
    outbox.streamEnded(invalid);
    assertThat(drain()).singleElement().matches(WorkerMessage::hasRunFailure, "r1 shrunk");

    outbox.streamEnded(invalid);

    List<WorkerMessage> next = drain();
    assertThat(runIds(next)).containsExactly("r2");
    acknowledge(next);
    assertThat(outbox.pending()).isZero();
  }

  @Test
  void holdsNothingAgainstReportsWhoseStreamWasLostForAnotherReason() {
    List.of("r1", "r2").forEach(id -> outbox.add(result(id, 1)));
    drain();

    outbox.streamEnded(Status.UNAVAILABLE.withDescription("controller restarting"));

    assertThat(runIds(drain())).containsExactly("r1", "r2");
    assertThat(outbox.isolating()).isFalse();
  }

  private List<WorkerMessage> drain() {
    List<WorkerMessage> out = new ArrayList<>();
    for (Optional<WorkerMessage> m = outbox.poll(); m.isPresent(); m = outbox.poll()) {
      out.add(m.get());
    }
    return out;
  }

  private void acknowledge(List<WorkerMessage> sent) {
    sent.forEach(m -> outbox.acknowledged(Reports.runId(m).orElseThrow()));
  }

  private static List<String> runIds(List<WorkerMessage> sent) {
    return sent.stream().map(m -> Reports.runId(m).orElseThrow()).toList();
  }

  private static WorkerMessage result(String runId, int samples) {
    RunResult.Builder r = RunResult.newBuilder().setRunId(runId).setExperimentId("e1").setBlockId("b1").setLeaseEpoch(4);
    for (int i = 0; i < samples; i++) {
      r.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(31_800 + i).setUnit("ops/s")
          .setBetter("higher").setIteration(i));
    }
    return WorkerMessage.newBuilder().setRunResult(r).build();
  }
}
