package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.security.Security;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterExposureTest {
  private static final Security TLS = new Security(
      new Security.Tls(Path.of("ca.pem"), Path.of("c.pem"), Path.of("c-key.pem")),
      Security.AuthMode.TOKENS, Path.of("t"));

  @Test
  void allowsALoopbackOneNodeClusterInPlaintext() {
    assertThatCode(() -> ClusterExposure.check(ControllerSettings.inMemory())).doesNotThrowAnyException();
  }

  @Test
  void rejectsSeedNodesInPlaintextWithoutInsecureCluster() {
    var s = ControllerSettings.inMemory().withCluster("127.0.0.1", 0, List.of("127.0.0.1:2552"));
    assertThatThrownBy(() -> ClusterExposure.check(s)).hasMessageContaining("--insecure-cluster");
    assertThatCode(() -> ClusterExposure.check(s.withInsecureCluster(true))).doesNotThrowAnyException();
  }

  @Test
  void rejectsANonLoopbackClusterHostInPlaintextWithoutInsecureCluster() {
    var s = ControllerSettings.inMemory().withCluster("10.1.2.3", 2552, List.of());
    assertThatThrownBy(() -> ClusterExposure.check(s)).hasMessageStartingWith("cluster host 10.1.2.3 in plaintext");
    assertThatCode(() -> ClusterExposure.check(s.withInsecureCluster(true))).doesNotThrowAnyException();
  }

  @Test
  void rejectsWildcardClusterHostsInPlaintextEvenWithInsecureCluster() {
    for (String any : List.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0")) {
      var s = ControllerSettings.inMemory().withCluster(any, 2552, List.of()).withInsecureCluster(true);
      assertThatThrownBy(() -> ClusterExposure.check(s)).as(any).hasMessageContaining("on every interface");
    }
  }

  @Test
  void allowsSeedsAndAnyHostWithTlsWhereTheClusterIsMutualTls() {
    var s = ControllerSettings.inMemory().withSecurity(TLS).withCluster("0.0.0.0", 2552, List.of("10.0.0.1:2552"));
    assertThatCode(() -> ClusterExposure.check(s)).doesNotThrowAnyException();
  }

  @Test
  void tlsSwitchesTheClusterTransportToMutualTlsWithTheNodeCertificate() {
    var config = PekkoConfig.of(ControllerSettings.inMemory().withSecurity(TLS));
    assertThat(config.getString("pekko.remote.artery.transport")).isEqualTo("tls-tcp");
    assertThat(config.getString("pekko.remote.artery.ssl.ssl-engine-provider"))
        .isEqualTo("dev.abfleet.controller.security.ClusterTls");
    assertThat(Path.of(config.getString("abfleet.cluster-tls.cert"))).isEqualTo(Path.of("c.pem").toAbsolutePath());
    assertThat(PekkoConfig.of(ControllerSettings.inMemory()).getString("pekko.remote.artery.transport")).isEqualTo("tcp");
  }
}
