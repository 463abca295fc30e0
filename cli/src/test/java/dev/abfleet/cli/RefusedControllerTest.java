package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A controller that is not there (nothing listens at the address) fails a command's first call
 * at once with the fix; one the command has reached and that went away is still waited for.
 */
@Timeout(60)
class RefusedControllerTest {
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private final PrintStream logStream = new PrintStream(log, true, StandardCharsets.UTF_8);
  private Server server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.shutdownNow();
    }
    Reconnect.forgetReached();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String expected(String target) {
    return "abfleet: cannot reach the controller at " + target + " (connection refused): is"
        + " `abfleet controller` running there? (--controller HOST:PORT to point elsewhere)";
  }

  /** experiments list and watch retry (1 and 10 min), hosts and tokens do not: all say the same. */
  @ParameterizedTest
  @ValueSource(strings = {"experiments list", "experiments watch e-0000abcd", "report e-0000abcd",
      "hosts list", "tokens list"})
  void aCommandAgainstAFreePortFailsWithinSecondsNamingTheFix(String command) throws IOException {
    String target = "127.0.0.1:" + freePort();
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("--controller", target));
    StringWriter err = new StringWriter();

    long start = System.nanoTime();
    int code = Main.run(new PrintWriter(err, true), args.toArray(String[]::new));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(code).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString().strip()).isEqualTo(expected(target));
    // Not a timing goal: the bound tells "failed at once" from the retry windows of 1 and 10
    // minutes, with room for a loaded machine's first gRPC call in the JVM (5.9 s seen at load 14).
    assertThat(took).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void namesTheHostAsGivenWhenOnlyNettysMessageHasTheAddress() {
    assertThat(Main.refusedAddress(new ConnectException(
        "finishConnect(..) failed with error(-111): Connection refused: localhost/127.0.0.1:7070")))
        .isEqualTo("localhost:7070");
    assertThat(Main.refusedAddress(new ConnectException("Connection refused: /10.0.0.5:7070")))
        .isEqualTo("10.0.0.5:7070");
  }

  private static StatusRuntimeException refusal() {
    return Status.UNAVAILABLE.withDescription("io exception")
        .withCause(new ConnectException("Connection refused: /127.0.0.1:1")).asRuntimeException();
  }

  private Reconnect reconnect(String target, List<Long> sleeps) {
    return new Reconnect(target, Duration.ofMinutes(10), logStream, System::nanoTime, sleeps::add,
        new Random(1));
  }

  @Test
  void aRefusalBeforeTheControllerWasEverReachedIsNotRetried() {
    List<Long> sleeps = new ArrayList<>();
    assertThatThrownBy(() -> reconnect("c:1", sleeps).backOff(refusal()))
        .isInstanceOf(Reconnect.ControllerUnreachable.class)
        .hasMessageStartingWith("cannot reach the controller at c:1 (connection refused)");
    assertThat(sleeps).isEmpty();
  }

  /** A command that opens a new client per step (git bisect run) rides out a restart between steps. */
  @Test
  void aRefusalAfterAnotherClientOfTheCommandReachedTheControllerIsRetried() {
    reconnect("c:1", new ArrayList<>()).reached();
    List<Long> sleeps = new ArrayList<>();
    reconnect("c:1", sleeps).backOff(refusal());
    assertThat(sleeps).hasSize(1);
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("controller c:1 unavailable");
  }

  @Test
  void aTimeoutOrAResetIsNoRefusal() {
    assertThat(Reconnect.refused(Status.UNAVAILABLE.withDescription("connection reset")
        .asRuntimeException())).isFalse();
    assertThat(Reconnect.refused(Status.DEADLINE_EXCEEDED.asRuntimeException())).isFalse();
    assertThat(Reconnect.refused(Status.UNAVAILABLE.withCause(
        new ConnectException("connection timed out: /10.0.0.5:7070")).asRuntimeException())).isFalse();
  }

  /** Answers every get with a running experiment. */
  static final class Answering extends ExperimentServiceGrpc.ExperimentServiceImplBase {
    @Override
    public void getExperiment(GetExperimentRequest req, StreamObserver<Experiment> out) {
      out.onNext(Experiment.newBuilder().setExperimentId(req.getExperimentId()).setState("running").build());
      out.onCompleted();
    }
  }

  private Server serve(int port) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(new Answering()).build().start();
  }

  /** The controller answered, stopped (its port now refuses) and came back on the same port. */
  @Test
  void aControllerThatWasReachedAndWentAwayIsWaitedForOverRefusals() throws Exception {
    server = serve(0);
    int port = server.getPort();
    String target = "127.0.0.1:" + port;
    AtomicReference<Exception> restartFailed = new AtomicReference<>();
    Reconnect reconnect = new Reconnect(target, Duration.ofMinutes(1), logStream, System::nanoTime,
        Thread::sleep, new Random(1));
    try (ExperimentClient client = new ExperimentClient(target, reconnect)) {
      assertThat(client.get("e-1").getState()).isEqualTo("running");
      server.shutdownNow().awaitTermination();
      Thread restart = new Thread(() -> {
        try {
          Thread.sleep(1_500);
          server = serve(port);
        } catch (Exception e) {
          restartFailed.set(e);
        }
      });
      restart.start();
      assertThat(client.get("e-2").getState()).isEqualTo("running");
      restart.join();
    }
    assertThat(restartFailed.get()).isNull();
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("controller " + target + " unavailable")
        .contains("is back after");
  }
}
