package dev.abfleet.controller.security;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a controller protects its gRPC port: the transport (TLS with client certificates for
 * workers, or plaintext on loopback) and how clients authenticate.
 *
 * @param transport TLS files, or plaintext
 * @param auth whether client calls need an API token
 * @param bootstrapTokenFile where the first operator token is written when the token store is
 *     empty and {@code auth} is {@link AuthMode#TOKENS}
 */
public record Security(Transport transport, AuthMode auth, Path bootstrapTokenFile) {

  /** TLS or plaintext. */
  public sealed interface Transport permits Tls, Plaintext {}

  /**
   * TLS with the controller's certificate chain and key; clients may present a certificate
   * signed by {@code ca} (workers must).
   *
   * @param ca PEM of the CA that signs worker certificates
   * @param cert PEM of this controller's certificate chain
   * @param key PEM of its private key (PKCS#8)
   */
  public record Tls(Path ca, Path cert, Path key) implements Transport {
    public Tls {
      Objects.requireNonNull(ca, "ca");
      Objects.requireNonNull(cert, "cert");
      Objects.requireNonNull(key, "key");
    }
  }

  /** No TLS: allowed only on a loopback address (see {@link #checkBind}). */
  public record Plaintext() implements Transport {}

  /** Whether client calls need a token. */
  public enum AuthMode {
    /** Every client call needs an API token with a role that covers the method. */
    TOKENS,
    /** No client authentication (workers still need certificates under TLS). */
    NONE;

    /** The mode of a fleet.yaml value: "tokens", "none"; empty = tokens with TLS, none without. */
    public static AuthMode of(String value, Transport transport) {
      return switch (value == null ? "" : value) {
        case "" -> transport instanceof Tls ? TOKENS : NONE;
        case "tokens" -> TOKENS;
        case "none" -> NONE;
        default -> throw new IllegalArgumentException("auth mode '" + value
            + "': expected tokens, none, or empty (tokens with TLS, none with plaintext)");
      };
    }
  }

  public Security {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(bootstrapTokenFile, "bootstrapTokenFile");
  }

  /** Plaintext, no client authentication: tests and the embedded controller of ab/demo. */
  public static Security plaintextLoopback() {
    return new Security(new Plaintext(), AuthMode.NONE, defaultBootstrapTokenFile());
  }

  /** $ABFLEET_HOME/controller/operator.token. */
  public static Path defaultBootstrapTokenFile() {
    return dev.abfleet.controller.ControllerSettings.abfleetHome()
        .resolve("controller").resolve("operator.token");
  }

  public boolean tls() {
    return transport instanceof Tls;
  }

  /**
   * Refuses plaintext on an address other than loopback.
   *
   * @throws IllegalArgumentException naming the address and the fix
   */
  public void checkBind(String grpcHost) {
    if (!tls() && !Loopback.is(grpcHost)) {
      throw new IllegalArgumentException("plaintext gRPC on " + grpcHost + " would be open to the"
          + " network; bind grpc_host to 127.0.0.1, or configure controller.tls (ca, cert, key;"
          + " `abfleet certs init` makes them)");
    }
  }
}
