package dev.abfleet.cli.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.security.Security;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * A controller serving TLS with token auth on loopback, with a CA, its server certificate and
 * worker certificates made by {@code abfleet certs}; and plain generated-stub channels to it.
 */
final class TlsController implements AutoCloseable {
  final Path certs;
  final ControllerNode node;
  private final List<ManagedChannel> channels = new ArrayList<>();

  private TlsController(Path certs, ControllerNode node) {
    this.certs = certs;
    this.node = node;
  }

  /** Makes the certificates in {@code dir}/certs and starts the controller with an H2 store there. */
  static TlsController start(Path dir, String... workerHostIds) {
    return start(dir, 0, workerHostIds);
  }

  /** As {@link #start(Path, String...)}, serving /metrics on {@code metricsPort} (0 = off). */
  static TlsController start(Path dir, int metricsPort, String... workerHostIds) {
    Path certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    abfleet("certs", "issue", "--controller", "controller", "--san", "127.0.0.1,localhost",
        "--dir", certs.toString());
    for (String host : workerHostIds) {
      abfleet("certs", "issue", "--worker", host, "--dir", certs.toString());
    }
    Security security = new Security(new Security.Tls(certs.resolve("ca.pem"),
        certs.resolve("controller.pem"), certs.resolve("controller-key.pem")),
        Security.AuthMode.TOKENS, dir.resolve("operator.token"));
    ControllerSettings settings = ControllerSettings.inMemory()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")))
        .withSecurity(security)
        .withMetricsPort(metricsPort);
    return new TlsController(certs, ControllerNode.start(settings));
  }

  static void abfleet(String... args) {
    StringWriter err = new StringWriter();
    assertThat(Main.run(new PrintWriter(err, true), args)).as(String.join(" ", args) + ": " + err).isZero();
  }

  String target() {
    return "127.0.0.1:" + node.grpcPort();
  }

  /** TLS trusting the CA, no client certificate, with {@code token} (null = none) as a Bearer header. */
  ManagedChannel client(String token) {
    return channel(token, null);
  }

  /** TLS with the worker certificate of {@code hostId}. */
  ManagedChannel worker(String hostId) {
    return channel(null, hostId);
  }

  /** A plaintext channel to the TLS port. */
  ManagedChannel plaintext() {
    return keep(NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build());
  }

  private ManagedChannel channel(String token, String workerCert) {
    try {
      var ssl = GrpcSslContexts.forClient().trustManager(certs.resolve("ca.pem").toFile());
      if (workerCert != null) {
        ssl.keyManager(certs.resolve(workerCert + ".pem").toFile(),
            certs.resolve(workerCert + "-key.pem").toFile());
      }
      NettyChannelBuilder b = NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort())
          .sslContext(ssl.build());
      if (token != null) {
        b.intercept(bearer(token));
      }
      return keep(b.build());
    } catch (SSLException e) {
      throw new IllegalStateException(e);
    }
  }

  static ClientInterceptor bearer(String token) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return MetadataUtils.newAttachHeadersInterceptor(headers);
  }

  private ManagedChannel keep(ManagedChannel c) {
    channels.add(c);
    return c;
  }

  @Override
  public void close() {
    channels.forEach(ManagedChannel::shutdownNow);
    node.close();
  }
}
