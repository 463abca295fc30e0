package dev.abfleet.worker.link;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * How a client or worker secures its channel to the controller.
 *
 * <p>With a CA: TLS trusting that CA (and presenting {@code cert}/{@code key} when given: a
 * worker's mTLS identity). Without one: plaintext to a loopback controller, TLS with the JDK's
 * default trust to any other. A token is sent as {@code authorization: Bearer <token>} on every
 * call.
 *
 * @param ca PEM of the CA that signed the controller's certificate; null = see above
 * @param cert PEM client certificate (workers); null = none
 * @param key PEM PKCS#8 key of {@code cert}; null with cert null
 * @param token an API token, or null
 */
public record ChannelSecurity(Path ca, Path cert, Path key, String token) {
  /** No CA, no client certificate, no token. */
  public static final ChannelSecurity DEFAULT = new ChannelSecurity(null, null, null, null);

  public ChannelSecurity {
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException("a client certificate needs its key and the key its"
          + " certificate; pass both --cert and --key");
    }
  }

  /** A client with an optional CA and token. */
  public static ChannelSecurity client(Path ca, String token) {
    return new ChannelSecurity(ca, null, null, token);
  }

  /**
   * Applies TLS (or plaintext) and the token to {@code builder} for {@code nodes}.
   *
   * @throws IllegalArgumentException naming a PEM file that cannot be used
   */
  void apply(NettyChannelBuilder builder, List<ControllerTargets.HostPort> nodes) {
    if (ca != null) {
      try {
        var ssl = GrpcSslContexts.forClient().trustManager(ca.toFile());
        if (cert != null) {
          ssl.keyManager(cert.toFile(), key.toFile());
        }
        builder.sslContext(ssl.build()).useTransportSecurity();
      } catch (SSLException | IllegalArgumentException e) {
        throw new IllegalArgumentException("cannot use --ca " + ca
            + (cert != null ? ", --cert " + cert + ", --key " + key : "") + ": " + e.getMessage()
            + "; expected PEM files (`abfleet certs` makes them)", e);
      }
    } else if (nodes.stream().allMatch(n -> loopback(n.host()))) {
      builder.usePlaintext();
    } else {
      builder.useTransportSecurity();
    }
    if (token != null) {
      builder.intercept(new BearerToken(token));
    }
  }

  /** Whether every node is local and the channel goes without TLS (no CA given). */
  public boolean plaintextTo(List<ControllerTargets.HostPort> nodes) {
    return ca == null && nodes.stream().allMatch(n -> loopback(n.host()));
  }

  static boolean loopback(String host) {
    return host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("::1");
  }

  @Override
  public String toString() {
    // Never the token itself.
    return "ChannelSecurity[ca=" + ca + ", cert=" + cert + ", token=" + (token == null ? "none" : "set") + "]";
  }

  /** Adds the token to every call's headers. */
  private static final class BearerToken implements ClientInterceptor {
    private static final Metadata.Key<String> AUTHORIZATION =
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private final String header;

    BearerToken(String token) {
      this.header = "Bearer " + token;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
        CallOptions options, Channel next) {
      return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          headers.put(AUTHORIZATION, header);
          super.start(listener, headers);
        }
      };
    }
  }
}
