package dev.abfleet.controller.security;

import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.SSLEngineProvider;
import scala.Option;

/**
 * Mutual TLS of the Pekko cluster port (Artery {@code tls-tcp}), keyed by the fleet's own CA.
 *
 * <p>A node presents its controller certificate (the one its gRPC port serves) both when it
 * accepts and when it opens a cluster connection, and accepts a peer only if the peer's
 * certificate chains to the fleet CA and is a controller certificate too. One certificate per
 * node rather than a separate cluster certificate: a controller node is one identity on both
 * ports, so there is one file set to issue, mount and rotate; {@code abfleet certs issue
 * --controller} gives it both serverAuth and clientAuth usage for that reason. A worker
 * certificate (clientAuth only) chains to the same CA but is refused here: workers run on many
 * less trusted hosts and must never become cluster members or send a node remote messages.
 *
 * <p>Pekko constructs this class by name ({@code pekko.remote.artery.ssl.ssl-engine-provider})
 * and reads the PEM paths from {@code abfleet.cluster-tls.{ca,cert,key}}, which
 * {@link dev.abfleet.controller.PekkoConfig} sets from {@link Security.Tls}.
 */
public final class ClusterTls implements SSLEngineProvider {
  /** Pekko config path of the CA, certificate and key PEM files. */
  public static final String CONFIG_PATH = "abfleet.cluster-tls";

  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final String PROTOCOL = "TLSv1.3";

  private final SSLContext context;

  /** Called by Pekko's remoting with the classic system. */
  public ClusterTls(ActorSystem system) {
    var c = system.settings().config().getConfig(CONFIG_PATH);
    this.context = context(new Security.Tls(java.nio.file.Path.of(c.getString("ca")),
        java.nio.file.Path.of(c.getString("cert")), java.nio.file.Path.of(c.getString("key"))));
  }

  /**
   * Checks, before the actor system starts, that this node's certificate can serve the cluster.
   *
   * @throws IllegalArgumentException naming the file and the fix when it lacks a usage
   */
  public static void checkNodeCertificate(Security.Tls tls) {
    X509Certificate own = (X509Certificate) ServerTls.chain(tls)[0];
    if (!isControllerCertificate(own)) {
      throw new IllegalArgumentException("controller.tls.cert " + tls.cert() + " lacks clientAuth"
          + " or serverAuth usage, which the cluster's mutual TLS needs on every controller node;"
          + " reissue it with `abfleet certs issue --controller NAME --san HOSTS --force`");
    }
  }

  /** The JDK context: own chain and key, trusting only the fleet CA (PKIX, revocation off). */
  static SSLContext context(Security.Tls tls) {
    try {
      Certificate[] chain = ServerTls.chain(tls);
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      char[] none = new char[0];
      keys.setKeyEntry("node", ServerTls.privateKey(tls.key(), chain[0].getPublicKey().getAlgorithm()),
          none, chain);
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, none);
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      int i = 0;
      for (Certificate ca : ServerTls.certificates(tls.ca())) {
        trust.setCertificateEntry("ca" + i++, ca);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ssl = SSLContext.getInstance(PROTOCOL);
      ssl.init(kmf.getKeyManagers(), tmf.getTrustManagers(), new java.security.SecureRandom());
      return ssl;
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException("cannot use controller.tls for the cluster port (cert "
          + tls.cert() + ", key " + tls.key() + ", ca " + tls.ca() + "): " + e.getMessage(), e);
    }
  }

  @Override
  public SSLEngine createServerSSLEngine(String hostname, int port) {
    SSLEngine engine = engine(hostname, port);
    engine.setUseClientMode(false);
    engine.setNeedClientAuth(true);
    return engine;
  }

  @Override
  public SSLEngine createClientSSLEngine(String hostname, int port) {
    SSLEngine engine = engine(hostname, port);
    engine.setUseClientMode(true);
    return engine;
  }

  @Override
  public Option<Throwable> verifyClientSession(String hostname, SSLSession session) {
    return verifyPeer(session);
  }

  @Override
  public Option<Throwable> verifyServerSession(String hostname, SSLSession session) {
    return verifyPeer(session);
  }

  private SSLEngine engine(String hostname, int port) {
    SSLEngine engine = context.createSSLEngine(hostname, port);
    engine.setEnabledProtocols(new String[] {PROTOCOL});
    return engine;
  }

  /** The handshake proved the CA chain; this adds that the peer is a controller, not a worker. */
  private static Option<Throwable> verifyPeer(SSLSession session) {
    try {
      Certificate[] peer = session.getPeerCertificates();
      if (peer.length > 0 && peer[0] instanceof X509Certificate x && isControllerCertificate(x)) {
        return Option.empty();
      }
      String subject = peer.length > 0 && peer[0] instanceof X509Certificate x
          ? x.getSubjectX500Principal().getName() : "none";
      return Option.apply(new SSLPeerUnverifiedException("cluster peer " + subject
          + " is not a controller certificate (needs serverAuth and clientAuth usage)"));
    } catch (SSLPeerUnverifiedException e) {
      return Option.apply(e);
    }
  }

  /** Both usages: what {@code abfleet certs issue --controller} issues, and a worker lacks. */
  static boolean isControllerCertificate(X509Certificate cert) {
    try {
      List<String> usages = cert.getExtendedKeyUsage();
      return usages != null && usages.contains(SERVER_AUTH) && usages.contains(CLIENT_AUTH);
    } catch (CertificateParsingException e) {
      return false;
    }
  }
}
