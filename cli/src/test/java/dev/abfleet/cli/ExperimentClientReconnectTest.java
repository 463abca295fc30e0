package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentProgress;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.WatchExperimentRequest;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A controller that goes away and comes back (restart) is ridden out; one that stays away ends in
 * an infrastructure failure after the stated limit. Time is a fake clock advanced by the backoff.
 */
@Timeout(30)
class ExperimentClientReconnectTest {
  private final AtomicLong nanos = new AtomicLong();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private Server server;

  /** Fails the first {@code getFailures} gets and the first watch (after one update). */
  static class FlakyController extends ExperimentServiceGrpc.ExperimentServiceImplBase {
    final AtomicInteger getFailures;
    final Status failure;
    final AtomicInteger watches = new AtomicInteger();
    final Status watchBreak;

    FlakyController(int getFailures, Status failure) {
      this(getFailures, failure, Status.UNAVAILABLE.withDescription("connection reset"));
    }

    FlakyController(int getFailures, Status failure, Status watchBreak) {
      this.getFailures = new AtomicInteger(getFailures);
      this.failure = failure;
      this.watchBreak = watchBreak;
    }

    @Override
    public void getExperiment(GetExperimentRequest req, StreamObserver<Experiment> out) {
      if (getFailures.getAndDecrement() > 0) {
        out.onError(failure.asRuntimeException());
        return;
      }
      out.onNext(experiment(req.getExperimentId(), "running"));
      out.onCompleted();
    }

    @Override
    public void watchExperiment(WatchExperimentRequest req, StreamObserver<ExperimentProgress> out) {
      if (watches.getAndIncrement() == 0) {
        out.onNext(progress(req.getExperimentId(), "running"));
        out.onError(watchBreak.asRuntimeException());
        return;
      }
      out.onNext(progress(req.getExperimentId(), "completed"));
      out.onCompleted();
    }
  }

  static Experiment experiment(String id, String state) {
    return Experiment.newBuilder().setExperimentId(id).setState(state).build();
  }

  static ExperimentProgress progress(String id, String state) {
    return ExperimentProgress.newBuilder().setExperiment(experiment(id, state)).build();
  }

  private ExperimentClient client(FlakyController service, Duration limit) throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(service).build().start();
    String target = "127.0.0.1:" + server.getPort();
    Reconnect reconnect = new Reconnect(target, limit,
        new PrintStream(err, true, StandardCharsets.UTF_8), nanos::get,
        ms -> nanos.addAndGet(Duration.ofMillis(ms).toNanos()), new Random(1));
    return new ExperimentClient(target, reconnect);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.shutdownNow();
    }
  }

  @Test
  void getRetriesWhileTheControllerIsAwayAndSaysSoOnceOnStderr() throws Exception {
    try (ExperimentClient client = client(new FlakyController(4, Status.UNAVAILABLE),
        Duration.ofMinutes(10))) {
      assertThat(client.get("e1").getState()).isEqualTo("running");
    }
    assertThat(stderr()).containsOnlyOnce("unavailable (UNAVAILABLE").contains("retrying for up to 10 min")
        .containsOnlyOnce("is back after");
  }

  @Test
  void watchReopensABrokenStreamAndReturnsTheFinalState() throws Exception {
    FlakyController service = new FlakyController(2, Status.UNAVAILABLE);
    List<String> seen = new ArrayList<>();
    try (ExperimentClient client = client(service, Duration.ofMinutes(10))) {
      Experiment done = client.watch("e1", e -> seen.add(e.getState()));
      assertThat(done.getState()).isEqualTo("completed");
    }
    assertThat(service.watches.get()).isEqualTo(2);
    // The stream's update, the fresh get between streams, the second stream's update.
    assertThat(seen).containsExactly("running", "running", "completed");
    assertThat(stderr()).contains("connection reset").contains("is back after");
  }

  /** A controller that stops cleanly cancels the streams it serves: a restart too. */
  @Test
  void watchReopensAStreamTheControllerCancelled() throws Exception {
    FlakyController service = new FlakyController(1, Status.UNAVAILABLE,
        Status.CANCELLED.withDescription("RST_STREAM closed stream. HTTP/2 error code: CANCEL"));
    try (ExperimentClient client = client(service, Duration.ofMinutes(10))) {
      assertThat(client.watch("e1", e -> { }).getState()).isEqualTo("completed");
    }
    assertThat(service.watches.get()).isEqualTo(2);
    assertThat(stderr()).contains("unavailable (CANCELLED: RST_STREAM").contains("is back after");
  }

  /** gRPC ends the watch of an interrupted thread with CANCELLED: that one is the user's. */
  @Test
  void anInterruptedWatchEndsWithCancelledAndKeepsTheFlag() throws Exception {
    BlockingController service = new BlockingController();
    try (ExperimentClient client = client(service, Duration.ofMinutes(10))) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      AtomicBoolean flagKept = new AtomicBoolean();
      Thread t = new Thread(() -> {
        try {
          client.watch("e1", e -> { });
        } catch (RuntimeException e) {
          thrown.set(e);
          flagKept.set(Thread.currentThread().isInterrupted());
        }
      });
      t.start();
      assertThat(service.opened.await(10, TimeUnit.SECONDS)).isTrue();
      t.interrupt();
      t.join(10_000);
      assertThat(thrown.get()).isInstanceOfSatisfying(StatusRuntimeException.class,
          e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED));
      assertThat(flagKept).isTrue();
    }
    assertThat(service.watches.get()).isEqualTo(1);
    assertThat(stderr()).doesNotContain("unavailable");
  }

  /** Sends one update per watch and then nothing: the stream stays open. */
  static final class BlockingController extends FlakyController {
    final CountDownLatch opened = new CountDownLatch(1);

    BlockingController() {
      super(0, Status.UNAVAILABLE);
    }

    @Override
    public void watchExperiment(WatchExperimentRequest req, StreamObserver<ExperimentProgress> out) {
      watches.incrementAndGet();
      out.onNext(progress(req.getExperimentId(), "running"));
      opened.countDown();
    }
  }

  @Test
  void aControllerAwayPastTheLimitIsAnInfrastructureFailure() throws Exception {
    try (ExperimentClient client = client(new FlakyController(Integer.MAX_VALUE,
        Status.UNAVAILABLE), Duration.ofMinutes(2))) {
      assertThatThrownBy(() -> client.get("e1"))
          .isInstanceOf(Reconnect.ControllerUnreachable.class)
          .hasMessageContaining("unavailable for 2 min")
          .hasMessageContaining("follow it again once the controller is back");
    }
    assertThat(Duration.ofNanos(nanos.get())).isBetween(Duration.ofMinutes(2),
        Duration.ofMinutes(2).plusSeconds(6));
  }

  @Test
  void aDeadlineIsRetriedLikeARestart() throws Exception {
    try (ExperimentClient client = client(new FlakyController(1, Status.DEADLINE_EXCEEDED),
        Duration.ofMinutes(10))) {
      assertThat(client.get("e1").getState()).isEqualTo("running");
    }
  }

  @Test
  void otherFailuresAreNotRetried() throws Exception {
    FlakyController service = new FlakyController(5, Status.NOT_FOUND);
    try (ExperimentClient client = client(service, Duration.ofMinutes(10))) {
      assertThatThrownBy(() -> client.get("e1")).isInstanceOf(StatusRuntimeException.class)
          .hasMessageContaining("NOT_FOUND");
    }
    assertThat(service.getFailures.get()).isEqualTo(4);
  }

  @Test
  void backoffGrowsToItsCapWithJitter() {
    List<Long> sleeps = new ArrayList<>();
    Reconnect r = new Reconnect("c:1", Duration.ofMinutes(10), new PrintStream(err, true,
        StandardCharsets.UTF_8), nanos::get, sleeps::add, new Random(1));
    StatusRuntimeException away = Status.UNAVAILABLE.asRuntimeException();
    for (int i = 0; i < 8; i++) {
      r.backOff(away);
    }
    assertThat(sleeps.get(0)).isBetween(200L, 300L);
    assertThat(sleeps.get(1)).isBetween(400L, 600L);
    assertThat(sleeps.subList(5, 8)).allSatisfy(ms -> assertThat(ms).isBetween(4_000L, 6_000L));
  }
}
