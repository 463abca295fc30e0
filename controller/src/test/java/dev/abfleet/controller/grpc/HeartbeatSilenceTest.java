package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A session ends for the worker's silence on the transport, not for the controller's backlog. */
class HeartbeatSilenceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Test
  void waitsOutTheRestOfTheTimeoutWhenTheWorkerSpokeRecently() {
    // The timer fired late (the actor was behind), but the transport heard the worker 1.2 s ago.
    assertThat(HostSession.stillHeard(Duration.ofMillis(1200), TIMEOUT)).isEqualTo(Duration.ofMillis(3800));
  }

  @Test
  void endsTheSessionAfterAWholeTimeoutOfSilence() {
    assertThat(HostSession.stillHeard(TIMEOUT, TIMEOUT)).isZero();
    assertThat(HostSession.stillHeard(Duration.ofSeconds(9), TIMEOUT)).isZero();
  }

  @Test
  void recordsWhenTheTransportLastHeardTheWorker() throws Exception {
    WorkerStream stream = new WorkerStream(new io.grpc.stub.StreamObserver<>() {
      @Override
      public void onNext(dev.abfleet.proto.fleet.v1.ControllerMessage value) { }

      @Override
      public void onError(Throwable t) { }

      @Override
      public void onCompleted() { }
    });
    // The silence grows with the transport's clock while nothing is heard.
    Eventually.await("50 ms of silence", Duration.ofSeconds(5),
        () -> stream.silentNanos() >= Duration.ofMillis(50).toNanos());

    stream.heard();

    assertThat(stream.silentNanos()).isLessThan(Duration.ofMillis(50).toNanos());
  }
}
