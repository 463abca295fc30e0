package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.proto.fleet.v1.ArtifactServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.testkit.HostileInputs;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile unary calls against one controller node (H2 journal, so that it can list what it
 * recorded, and its own artifact store): each fails with the expected status code and a
 * description naming the problem and the fix, with no class name or stack trace, and leaves
 * no experiment and no stored file behind.
 */
class HostileGrpcTest extends ControllerNodeTest {
  @TempDir static Path dir;
  static ControllerNode node;
  static ManagedChannel channel;
  static HostileGrpcCases.Stubs stubs;

  @BeforeAll
  static void start() {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    node = ControllerNode.start(settings, new ArtifactStoreSettings(dir.resolve("artifacts"), 1L << 30));
    channel = channel(node);
    stubs = new HostileGrpcCases.Stubs(ExperimentServiceGrpc.newBlockingStub(channel),
        FleetServiceGrpc.newBlockingStub(channel), ArtifactServiceGrpc.newBlockingStub(channel), channel);
  }

  @AfterAll
  static void stop() {
    channel.shutdownNow();
    node.close();
  }

  static Stream<HostileGrpcCases.UnaryCase> unary() {
    return HostileGrpcCases.cases().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unary")
  void hostileCallFailsWithACodeAndAClearDescription(HostileGrpcCases.UnaryCase c) throws IOException {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> c.call().run(stubs));

    assertClear(e, c.code(), c.problem(), c.fix());
    assertNothingRecorded();
  }

  static Stream<HostileStreamCases.StreamCase> worker() {
    return HostileStreamCases.worker().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("worker")
  void hostileWorkerStreamIsRefusedOrIgnored(HostileStreamCases.StreamCase c) throws Exception {
    RawStream stream = RawStream.open(channel, WorkerServiceGrpc.getConnectMethod());
    c.messages().forEach(stream::send);

    if (c.code() != null) {
      assertClear(stream.awaitError(), c.code(), c.problem(), c.fix());
    } else {
      // The garbage is ignored: the stream stays open and the host is listed.
      stream.send(WorkerMessage.newBuilder().setHeartbeat(Heartbeat.getDefaultInstance()).build().toByteArray());
      assertThat(stream.errorWithin(Duration.ofMillis(500))).isNull();
      assertThat(stubs.experiments().listHosts(ListHostsRequest.getDefaultInstance()).getHostsList())
          .extracting(Host::getHostId).contains(hostOf(c));
      stream.complete();
    }
    assertNothingRecorded();
  }

  private static String hostOf(HostileStreamCases.StreamCase c) throws Exception {
    return WorkerMessage.parseFrom(c.messages().get(0)).getHello().getHostId();
  }

  static Stream<HostileStreamCases.StreamCase> uploads() {
    return HostileStreamCases.uploads().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("uploads")
  void hostileUploadIsRefusedAndLeavesNoFile(HostileStreamCases.StreamCase c) throws Exception {
    RawStream stream = RawStream.open(channel, ArtifactServiceGrpc.getUploadArtifactMethod());
    c.messages().forEach(stream::send);
    stream.complete();

    assertClear(stream.awaitError(), c.code(), c.problem(), c.fix());
    assertNothingRecorded();
  }

  /** Longest description a refusal may carry: five problems, each quoting at most 100 characters. */
  static final int MAX_DESCRIPTION = 2048;

  static void assertClear(StatusRuntimeException e, io.grpc.Status.Code code, String problem, String fix) {
    assertThat(e).as("the call must fail").isNotNull();
    String description = String.valueOf(e.getStatus().getDescription());
    assertThat(e.getStatus().getCode()).as(description).isEqualTo(code);
    assertThat(description).contains(problem).contains(fix);
    assertThat(description.lines().count()).as(description).isEqualTo(1);
    // A status travels in a header: a description echoing a 10 KB value would exceed the client's
    // metadata limit and reach it as a transport error instead of the problem.
    assertThat(description.length()).as(description).isLessThanOrEqualTo(MAX_DESCRIPTION);
    assertThat(HostileInputs.leaksInternals(description)).as(description).isFalse();
  }

  static void assertNothingRecorded() throws IOException {
    assertThat(stubs.experiments().listExperiments(ListExperimentsRequest.getDefaultInstance())
        .getExperimentsList()).isEmpty();
    Path artifacts = dir.resolve("artifacts");
    if (Files.exists(artifacts)) {
      try (Stream<Path> files = Files.walk(artifacts)) {
        assertThat(files.filter(Files::isRegularFile)).isEmpty();
      }
    }
  }
}
