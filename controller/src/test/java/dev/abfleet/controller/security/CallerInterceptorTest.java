package dev.abfleet.controller.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision table: which caller may call which method under which settings. */
class CallerInterceptorTest {
  private static final Path FILE = Path.of("/tmp/operator.token");
  private static final Security.Tls TLS = new Security.Tls(Path.of("ca"), Path.of("c"), Path.of("k"));
  private final InMemoryTokenStore tokens = new InMemoryTokenStore();

  private CallerInterceptor interceptor(Security.Transport transport, Security.AuthMode mode) {
    return new CallerInterceptor(new Security(transport, mode, FILE), tokens);
  }

  @Test
  void plaintextWithoutAuthLetsEverybodyIn() {
    var i = interceptor(new Security.Plaintext(), Security.AuthMode.NONE);
    assertThat(i.decide("fleet.v1.FleetService/DrainHost", Optional.empty(), null).caller())
        .isEqualTo(Caller.ANONYMOUS);
    assertThat(i.decide("fleet.v1.WorkerService/Connect", Optional.empty(), null).denial()).isNull();
  }

  @Test
  void tlsWithoutAuthStillNeedsAWorkerCertificateForConnect() {
    var i = interceptor(TLS, Security.AuthMode.NONE);
    assertThat(i.decide("fleet.v1.ExperimentService/SubmitExperiment", Optional.empty(), null).denial())
        .isNull();
    assertThat(i.decide("fleet.v1.WorkerService/Connect", Optional.empty(), null).denial().getCode())
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(i.decide("fleet.v1.WorkerService/Connect", Optional.of("h1"), null).caller())
        .isEqualTo(new Caller.Worker("h1"));
  }

  @Test
  void aWorkerCertificateGrantsArtifactReadsButNotSubmit() {
    var i = interceptor(TLS, Security.AuthMode.TOKENS);
    assertThat(i.decide("fleet.v1.ArtifactService/FetchArtifact", Optional.of("h1"), null).caller())
        .isEqualTo(new Caller.Worker("h1"));
    Status denied = i.decide("fleet.v1.ExperimentService/SubmitExperiment", Optional.of("h1"), null).denial();
    assertThat(denied.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(denied.getDescription()).contains("needs an API token with role submit");
  }

  @Test
  void tokensAreCheckedByRole() {
    var i = interceptor(TLS, Security.AuthMode.TOKENS);
    String submit = tokens.create("ci", Role.SUBMIT, Instant.now()).token().value();
    assertThat(i.decide("fleet.v1.ExperimentService/SubmitExperiment", Optional.empty(), "Bearer " + submit)
        .caller()).isInstanceOf(Caller.Token.class);
    Status denied = i.decide("fleet.v1.AuthService/CreateToken", Optional.empty(), "Bearer " + submit).denial();
    assertThat(denied.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(denied.getDescription()).startsWith("fleet.v1.AuthService/CreateToken needs role operator;")
        .endsWith("(ci) has role submit");
    assertThat(i.decide("x.Y/Z", Optional.empty(), "Bearer " + submit).denial().getDescription())
        .isEqualTo("x.Y/Z has no access rule on this controller; nobody may call it");
    assertThat(i.decide("fleet.v1.ExperimentService/ListHosts", Optional.empty(), "Bearer nonsense")
        .denial().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void rolesAreHierarchical() {
    assertThat(Role.OPERATOR.covers(Role.SUBMIT)).isTrue();
    assertThat(Role.SUBMIT.covers(Role.READ)).isTrue();
    assertThat(Role.READ.covers(Role.SUBMIT)).isFalse();
    assertThat(Role.SUBMIT.covers(Role.OPERATOR)).isFalse();
  }

  @Test
  void emptyAuthModeFollowsTheTransport() {
    assertThat(Security.AuthMode.of("", TLS)).isEqualTo(Security.AuthMode.TOKENS);
    assertThat(Security.AuthMode.of("", new Security.Plaintext())).isEqualTo(Security.AuthMode.NONE);
    assertThat(Security.AuthMode.of("tokens", new Security.Plaintext())).isEqualTo(Security.AuthMode.TOKENS);
  }

  @Test
  void plaintextIsRefusedOffLoopback() {
    Security plain = Security.plaintextLoopback();
    plain.checkBind("127.0.0.1");
    plain.checkBind("localhost");
    plain.checkBind("::1");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> plain.checkBind("0.0.0.0"))
        .hasMessageStartingWith("plaintext gRPC on 0.0.0.0 would be open to the network;");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> plain.checkBind("controller.example.org"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
