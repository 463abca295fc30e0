package dev.abfleet.cli.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.security.Role;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workers prove their host id with a certificate signed by the fleet's CA. */
class WorkerIdentityTest {
  @TempDir static Path dir;
  static TlsController controller;

  @BeforeAll
  static void start() {
    controller = TlsController.start(dir, "host-a");
  }

  @AfterAll
  static void stop() {
    controller.close();
  }

  /** What the controller answers first on a stream that says Hello for {@code hostId}. */
  private static CompletableFuture<Object> hello(ManagedChannel channel, String hostId) {
    CompletableFuture<Object> first = new CompletableFuture<>();
    StreamObserver<WorkerMessage> out = WorkerServiceGrpc.newStub(channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(ControllerMessage m) {
        first.complete(m);
      }

      @Override
      public void onError(Throwable t) {
        first.complete(Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        first.complete(Status.OK);
      }
    });
    out.onNext(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(hostId)
        .setArch("x86_64").setCpus(2).setMemoryMib(2048)).build());
    return first;
  }

  @Test
  void aWorkerWithItsOwnCertificateIsWelcomed() throws Exception {
    Object answer = hello(controller.worker("host-a"), "host-a").get(30, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOfSatisfying(ControllerMessage.class, m -> assertThat(m.hasWelcome()).isTrue());
  }

  @Test
  void aWorkerWithoutACertificateCannotConnect() throws Exception {
    Object answer = hello(controller.client(null), "host-a").get(30, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOfSatisfying(Status.class, s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(s.getDescription()).contains("needs a worker certificate").contains("--cert");
    });
  }

  @Test
  void anOperatorTokenIsNoWorkerCertificate() throws Exception {
    String token = controller.node.tokens().create("ops", Role.OPERATOR, Instant.now()).token().value();
    Object answer = hello(controller.client(token), "host-a").get(30, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOfSatisfying(Status.class,
        s -> assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  @Test
  void aCertificateForHostACannotClaimHostB() throws Exception {
    Object answer = hello(controller.worker("host-a"), "host-b").get(30, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOfSatisfying(Status.class, s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(s.getDescription()).isEqualTo("Hello claims host 'host-b' but the worker certificate"
          + " names host 'host-a'; start the worker with --host-id host-a or with a certificate issued"
          + " for its host id");
    });
    assertThat(controller.node.metrics().rejectedReports("host-b", ControllerMetrics.WRONG_IDENTITY))
        .isEqualTo(1);
    String token = controller.node.tokens().create("viewer", Role.READ, Instant.now()).token().value();
    var hosts = ExperimentServiceGrpc.newBlockingStub(controller.client(token))
        .listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
    assertThat(hosts).noneMatch(h -> h.getHostId().equals("host-b"));
  }

  @Test
  void aPlaintextClientCannotTalkToTheTlsPort() {
    var stub = ExperimentServiceGrpc.newBlockingStub(controller.plaintext())
        .withDeadlineAfter(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> stub.listHosts(ListHostsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isIn(Status.Code.UNAVAILABLE, Status.Code.INTERNAL));
  }
}
