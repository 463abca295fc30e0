package dev.abfleet.cli.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.security.Role;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TLS controller with API tokens serves /metrics over HTTPS, to read tokens only. */
class MetricsAccessTest {
  @TempDir static Path dir;
  static TlsController controller;
  static int port;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    controller = TlsController.start(dir, port);
  }

  @AfterAll
  static void stop() {
    controller.close();
  }

  private static HttpResponse<String> scrape(String scheme, String token) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream ca = Files.newInputStream(controller.certs.resolve("ca.pem"))) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(ca));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + port + "/metrics"));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HttpClient.newBuilder().sslContext(ssl).build()
        .send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aReadTokenScrapesOverHttps() throws Exception {
    String token = controller.node.tokens().create("prometheus", Role.READ, Instant.now()).token().value();

    HttpResponse<String> r = scrape("https", token);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("# TYPE abfleet_connected_hosts gauge");
  }

  @Test
  void noTokenOrARevokedOneIsRefused() throws Exception {
    var created = controller.node.tokens().create("old", Role.READ, Instant.now());
    controller.node.tokens().revoke(created.stored().id(), Instant.now());

    assertThat(scrape("https", null).statusCode()).isEqualTo(401);
    assertThat(scrape("https", created.token().value()).statusCode()).isEqualTo(401);
    assertThat(scrape("https", "abf_000000000000_made-up").body()).contains("read role");
  }

  @Test
  void plainHttpIsNotServed() {
    assertThatThrownBy(() -> scrape("http", null)).isInstanceOf(java.io.IOException.class);
  }
}
