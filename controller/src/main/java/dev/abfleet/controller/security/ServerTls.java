package dev.abfleet.controller.security;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.nio.file.Files;
import java.nio.file.Path;

/** The controller's TLS context: its certificate and key, trusting the fleet's CA for clients. */
public final class ServerTls {
  private ServerTls() {}

  /**
   * Client certificates are optional at the handshake: workers present one (Connect refuses
   * those that do not), token clients need not. A presented certificate must chain to the CA.
   *
   * @throws IllegalArgumentException naming the file that is missing or unreadable
   */
  public static SslContext context(Security.Tls tls) {
    for (var entry : java.util.List.of(
        java.util.Map.entry("ca", tls.ca()), java.util.Map.entry("cert", tls.cert()),
        java.util.Map.entry("key", tls.key()))) {
      Path p = entry.getValue();
      if (!Files.isReadable(p)) {
        throw new IllegalArgumentException("controller.tls." + entry.getKey() + " " + p
            + ": no such readable file; `abfleet certs init` and `abfleet certs issue --controller"
            + " NAME --san HOSTS` make them");
      }
    }
    try {
      return GrpcSslContexts.forServer(tls.cert().toFile(), tls.key().toFile())
          .trustManager(tls.ca().toFile())
          .clientAuth(ClientAuth.OPTIONAL)
          .build();
    } catch (Exception e) {
      // Netty reports PEM and key problems as several exception types; all mean the same to the user.
      throw new IllegalArgumentException("cannot use controller.tls (cert " + tls.cert() + ", key "
          + tls.key() + ", ca " + tls.ca() + "): " + e.getMessage()
          + "; the key must be PEM PKCS#8 and match the certificate", e);
    }
  }
}
