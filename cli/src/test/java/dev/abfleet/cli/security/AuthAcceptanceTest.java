package dev.abfleet.cli.security;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.security.Role;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.AuthServiceGrpc;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.CreateTokenRequest;
import dev.abfleet.proto.fleet.v1.DecideRunRequest;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.NightlyServiceGrpc;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RevokeTokenRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client authentication against a real TLS controller on loopback, with clients built from the
 * generated stubs and a plain Metadata header only.
 */
class AuthAcceptanceTest {
  @TempDir static Path dir;
  static TlsController controller;

  @BeforeAll
  static void start() {
    controller = TlsController.start(dir);
  }

  @AfterAll
  static void stop() {
    controller.close();
  }

  private static String token(String name, Role role) {
    return controller.node.tokens().create(name, role, Instant.now()).token().value();
  }

  @Test
  void anAnonymousClientIsRefusedOnEveryMethodOfEveryService() throws Exception {
    ManagedChannel anonymous = controller.client(null);
    List<ServiceDescriptor> services = GrpcServices.all();
    assertThat(services).extracting(ServiceDescriptor::getName).contains("fleet.v1.ExperimentService",
        "fleet.v1.FleetService", "fleet.v1.ArtifactService", "fleet.v1.WorkerService", "fleet.v1.AuthService");
    List<String> called = new ArrayList<>();
    for (ServiceDescriptor service : services) {
      for (MethodDescriptor<?, ?> method : service.getMethods()) {
        Status status = callWithDefaultRequest(anonymous, method);
        assertThat(status.getCode()).as(method.getFullMethodName() + ": " + status)
            .isEqualTo(Status.Code.UNAUTHENTICATED);
        called.add(method.getFullMethodName());
      }
    }
    assertThat(called).hasSizeGreaterThanOrEqualTo(16);
  }

  @Test
  void theNoTokenMessageNamesTheFix() {
    var stub = ExperimentServiceGrpc.newBlockingStub(controller.client(null));
    assertThatThrownBy(() -> stub.listHosts(ListHostsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus().getDescription())
            .isEqualTo("no API token: pass --token-file FILE or set ABFLEET_TOKEN; create one with"
                + " `abfleet tokens create`"));
  }

  @Test
  void aReadTokenListsButCannotSubmit() {
    var stub = ExperimentServiceGrpc.newBlockingStub(controller.client(token("dashboard", Role.READ)));
    assertThat(stub.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList()).isNotNull();
    assertThat(stub.listExperiments(ListExperimentsRequest.getDefaultInstance()).getExperimentsList())
        .isNotNull();
    assertThatThrownBy(() -> stub.submitExperiment(submit("e-read")))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
          assertThat(e.getStatus().getDescription())
              .startsWith("fleet.v1.ExperimentService/SubmitExperiment needs role submit; token abf_")
              .endsWith("(dashboard) has role read");
        });
  }

  @Test
  void aSubmitTokenCannotDrainAndCancelsOnlyItsOwnExperiments() {
    ManagedChannel ci = controller.client(token("ci", Role.SUBMIT));
    ManagedChannel other = controller.client(token("other-ci", Role.SUBMIT));
    assertThatThrownBy(() -> FleetServiceGrpc.newBlockingStub(ci)
        .drainHost(DrainHostRequest.newBuilder().setHostId("h1").build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
          assertThat(e.getStatus().getDescription()).contains("DrainHost needs role operator")
              .contains("has role submit");
        });

    var mine = ExperimentServiceGrpc.newBlockingStub(ci);
    var theirs = ExperimentServiceGrpc.newBlockingStub(other);
    mine.submitExperiment(submit("e-mine"));
    theirs.submitExperiment(submit("e-theirs"));

    assertThat(mine.cancelExperiment(cancel("e-mine")).getState()).isEqualTo("cancelled");
    assertThatThrownBy(() -> mine.cancelExperiment(cancel("e-theirs")))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
          assertThat(e.getStatus().getDescription()).startsWith("experiment e-theirs was submitted by"
              + " another token").contains("needs role operator");
        });
    var operator = ExperimentServiceGrpc.newBlockingStub(controller.client(token("ops", Role.OPERATOR)));
    assertThat(operator.cancelExperiment(cancel("e-theirs")).getState()).isEqualTo("cancelled");
  }

  @Test
  void onlyAnOperatorTokenMayDecideAHeldNightlyRun() {
    DecideRunRequest accept = DecideRunRequest.newBuilder().setExperimentId("night-20260310T0230Z").setAccept(true)
        .build();
    for (Role role : List.of(Role.READ, Role.SUBMIT)) {
      var stub = NightlyServiceGrpc.newBlockingStub(controller.client(token("n-" + role, role)));
      assertThatThrownBy(() -> stub.decideRun(accept))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
            assertThat(e.getStatus().getDescription()).startsWith("fleet.v1.NightlyService/DecideRun needs role"
                + " operator;");
          });
    }
    // Let through, an operator learns the run is unknown.
    var operator = NightlyServiceGrpc.newBlockingStub(controller.client(token("n-ops", Role.OPERATOR)));
    assertThatThrownBy(() -> operator.decideRun(accept))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
          assertThat(e.getStatus().getDescription()).startsWith("no nightly run night-20260310T0230Z");
        });
  }

  @Test
  void aRevokedTokenStopsWorkingAtOnce() throws Exception {
    String bootstrap = Files.readString(dir.resolve("operator.token")).strip();
    var auth = AuthServiceGrpc.newBlockingStub(controller.client(bootstrap));
    String created = auth.createToken(CreateTokenRequest.newBuilder().setName("laptop").setRole("read").build())
        .getToken();
    var stub = ExperimentServiceGrpc.newBlockingStub(controller.client(created));
    stub.listHosts(ListHostsRequest.getDefaultInstance());

    auth.revokeToken(RevokeTokenRequest.newBuilder().setId(created).build());

    assertThatThrownBy(() -> stub.listHosts(ListHostsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
          assertThat(e.getStatus().getDescription()).matches("token abf_[0-9a-f]{12}_\\.\\.\\. is revoked; .*");
        });
  }

  @Test
  void aForgedTokenWithAKnownIdIsRefused() {
    String real = token("real", Role.OPERATOR);
    String forged = real.substring(0, real.length() - 4) + (real.endsWith("AAAA") ? "BBBB" : "AAAA");
    var stub = ExperimentServiceGrpc.newBlockingStub(controller.client(forged));
    assertThatThrownBy(() -> stub.listHosts(ListHostsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  static SubmitExperimentRequest submit(String id) {
    return SubmitExperimentRequest.newBuilder().setExperimentId(id).setSpec(ExperimentSpec.newBuilder()
        .setName(id)
        .addArms(arm("base", "baseline", "a"))
        .addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setPolicy(Policy.newBuilder().setPairs(6).setSeed(17))
        .setPriority("pr")).build();
  }

  private static CancelExperimentRequest cancel(String id) {
    return CancelExperimentRequest.newBuilder().setExperimentId(id).setReason("test").build();
  }

  private static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name)))
        .build();
  }

  /** Calls {@code method} with its request type's default instance and returns how it closed. */
  @SuppressWarnings("unchecked")
  static <Q, R> Status callWithDefaultRequest(ManagedChannel channel, MethodDescriptor<Q, R> method)
      throws Exception {
    Q request = ((MethodDescriptor.PrototypeMarshaller<Q>) method.getRequestMarshaller()).getMessagePrototype();
    CompletableFuture<Status> closed = new CompletableFuture<>();
    ClientCall<Q, R> call = channel.newCall(method, CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS));
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    call.request(1);
    call.sendMessage(request);
    call.halfClose();
    return closed.get(30, TimeUnit.SECONDS);
  }
}
