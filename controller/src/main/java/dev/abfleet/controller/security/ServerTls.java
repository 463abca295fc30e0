package dev.abfleet.controller.security;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

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
    checkReadable(tls);
    try {
      return GrpcSslContexts.forServer(tls.cert().toFile(), tls.key().toFile())
          .trustManager(tls.ca().toFile())
          .clientAuth(ClientAuth.OPTIONAL)
          .build();
    } catch (Exception e) {
      throw unusable(tls, e);
    }
  }

  /**
   * The same certificate and key as a JDK context, for the controller's HTTPS endpoint
   * ({@code /metrics}); no client certificates there (scrapers send a token).
   *
   * @throws IllegalArgumentException naming the files when they cannot be used
   */
  public static SSLContext jdkContext(Security.Tls tls) {
    checkReadable(tls);
    try {
      Certificate[] chain = chain(tls);
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] none = new char[0];
      store.setKeyEntry("controller", privateKey(tls.key(), chain[0].getPublicKey().getAlgorithm()),
          none, chain);
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, none);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw unusable(tls, e);
    }
  }

  /**
   * This controller's certificate chain, leaf first.
   *
   * @throws IllegalArgumentException naming the files when they are missing or hold no certificate
   */
  static Certificate[] chain(Security.Tls tls) {
    checkReadable(tls);
    try {
      Certificate[] chain = certificates(tls.cert());
      if (chain.length == 0) {
        throw new IllegalArgumentException("no PEM certificate in " + tls.cert());
      }
      return chain;
    } catch (Exception e) {
      throw unusable(tls, e);
    }
  }

  /** Every certificate of a PEM file. */
  static Certificate[] certificates(Path pem) throws Exception {
    try (var in = Files.newInputStream(pem)) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in).toArray(Certificate[]::new);
    }
  }

  static PrivateKey privateKey(Path pem, String algorithm) throws Exception {
    String text = Files.readString(pem, StandardCharsets.US_ASCII);
    int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = text.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("no PEM PKCS#8 private key (BEGIN PRIVATE KEY) in " + pem);
    }
    byte[] der = Base64.getMimeDecoder().decode(
        text.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
    return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
  }

  private static void checkReadable(Security.Tls tls) {
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
  }

  // PEM and key problems come as several exception types; all mean the same to the user.
  private static IllegalArgumentException unusable(Security.Tls tls, Exception e) {
    return new IllegalArgumentException("cannot use controller.tls (cert " + tls.cert() + ", key "
          + tls.key() + ", ca " + tls.ca() + "): " + e.getMessage()
          + "; the key must be PEM PKCS#8 and match the certificate", e);
  }
}
