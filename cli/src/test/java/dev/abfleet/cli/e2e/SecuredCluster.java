package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.testkit.TestPostgres;
import dev.abfleet.worker.link.ChannelSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Controller nodes on loopback as the README sets up a cluster, over one PostgreSQL database:
 * certificates from {@code abfleet certs} (a CA, one controller certificate per node, one worker
 * certificate per sim host), TLS on the gRPC and the cluster port (mutual TLS keyed by the fleet
 * CA, no {@code --insecure-cluster}) and token auth. Node {@code i} is {@code c<i>}; its gRPC and
 * cluster ports are fixed here, so a node started again comes back on the same ones.
 */
final class SecuredCluster {
  static final String PASSWORD_ENV = "ABFLEET_E2E_PG_PASSWORD";

  private final Path dir;
  private final Path certs;
  private final TestPostgres.Database db;
  private final List<Integer> grpcPorts;
  private final List<Integer> clusterPorts;
  private final List<Path> tokenFiles = new ArrayList<>();

  /**
   * Issues the certificates under {@code dir/certs}: the CA, {@code c0..c<nodes-1>} for the
   * nodes (SAN 127.0.0.1, localhost), {@code sim-0001..} for {@code simHosts} sim hosts and one
   * for each of {@code workers}; picks 2 x {@code nodes} distinct free ports.
   */
  SecuredCluster(Path dir, TestPostgres.Database db, int nodes, int simHosts, String... workers)
      throws IOException {
    this.dir = dir;
    this.db = db;
    this.certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    for (int i = 0; i < nodes; i++) {
      // One certificate per node: a node is one identity on its gRPC and its cluster port.
      abfleet("certs", "issue", "--controller", "c" + i, "--san", "127.0.0.1,localhost", "--dir", certs.toString());
      tokenFiles.add(dir.resolve("c" + i + ".token"));
    }
    // A worker certificate names one host id.
    for (int h = 1; h <= simHosts; h++) {
      abfleet("certs", "issue", "--worker", String.format("sim-%04d", h), "--dir", certs.toString());
    }
    for (String w : workers) {
      abfleet("certs", "issue", "--worker", w, "--dir", certs.toString());
    }
    // Distinct: two free ports picked one after the other may be the same number, and a node
    // whose gRPC port is another's cluster port never starts.
    LinkedHashSet<Integer> ports = new LinkedHashSet<>();
    while (ports.size() < 2 * nodes) {
      ports.add(LocalProcesses.freePort());
    }
    List<Integer> all = List.copyOf(ports);
    this.grpcPorts = all.subList(0, nodes);
    this.clusterPorts = all.subList(nodes, 2 * nodes);
  }

  Path ca() {
    return certs.resolve("ca.pem");
  }

  int nodes() {
    return grpcPorts.size();
  }

  int grpcPort(int node) {
    return grpcPorts.get(node);
  }

  int clusterPort(int node) {
    return clusterPorts.get(node);
  }

  /** Index of the node whose cluster port is {@code port}; -1 if none. */
  int nodeOfClusterPort(int port) {
    return clusterPorts.indexOf(port);
  }

  /** The gRPC addresses of {@code nodes}, comma-separated, as --controller takes them. */
  String controllers(List<Integer> nodes) {
    return nodes.stream().map(i -> "127.0.0.1:" + grpcPorts.get(i)).collect(Collectors.joining(","));
  }

  /** The gRPC addresses of every node. */
  String controllers() {
    return controllers(java.util.stream.IntStream.range(0, nodes()).boxed().toList());
  }

  /**
   * Starts node {@code node} logging to {@code log}: its own certificate on both ports, token
   * auth over the one token store (whichever node finds it empty writes the bootstrap operator
   * token to its own file, and every node accepts it), every node's cluster port as a seed.
   */
  Process start(LocalProcesses fleet, int node, String log) throws Exception {
    return start(fleet, node, log, clusterPorts);
  }

  /**
   * Starts node {@code node} again after it was killed, with the other nodes' cluster ports as
   * its seeds. With its own address first among its seeds, a node that hears from no other seed
   * within Pekko's seed-node timeout forms a cluster of its own: seen in round 8 of 10 while the
   * machine was loaded (load average ~30, a flood bench beside the test), a restarted c0 ran a
   * second scheduler singleton over the same database and the first cluster's shard coordinator
   * failed on a duplicate journal key.
   */
  Process restart(LocalProcesses fleet, int node, String log) throws Exception {
    List<Integer> others = new ArrayList<>(clusterPorts);
    others.remove(node); // by index: node's own port
    return start(fleet, node, log, others);
  }

  private Process start(LocalProcesses fleet, int node, String log, List<Integer> seedPorts) throws Exception {
    Path config = Files.writeString(dir.resolve("c" + node + ".yaml"), "controller:\n"
        + "  tls: {ca: " + ca() + ", cert: " + certs.resolve("c" + node + ".pem") + ", key: "
        + certs.resolve("c" + node + "-key.pem") + "}\n"
        + "  auth: {mode: tokens, bootstrap_token_file: " + tokenFiles.get(node) + "}\n"
        + "  store:\n    kind: postgres\n    url: " + db.url() + "\n    user: " + db.user() + "\n"
        + "    password_env: " + PASSWORD_ENV + "\n");
    String seeds = seedPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    return fleet.startSecuredControllerNode(log, grpcPorts.get(node), Map.of(PASSWORD_ENV, db.password()),
        "--config", config.toString(), "--grpc-host", "127.0.0.1", "--cluster-host", "127.0.0.1",
        "--metrics-port", "0", "--cluster-port", String.valueOf(clusterPorts.get(node)), "--seed-nodes", seeds);
  }

  /** sim-fleet's options: the fleet CA, and each sim host's own certificate. */
  String[] simFleetOptions() {
    return new String[] {"--ca", ca().toString(), "--cert", certs + "/{host}.pem", "--key", certs + "/{host}-key.pem"};
  }

  /** The worker certificate issued for {@code host}, as a worker's channel uses it. */
  ChannelSecurity worker(String host) {
    return new ChannelSecurity(ca(), certs.resolve(host + ".pem"), certs.resolve(host + "-key.pem"), null);
  }

  /** The file holding the bootstrap operator token, once a node has written it. */
  Path tokenFile() {
    return Eventually.until("a bootstrap token file", Duration.ofSeconds(60),
        () -> tokenFiles.stream().filter(Files::exists).findFirst(), Optional::isPresent).get();
  }

  /** The operator's client credentials: the fleet CA and the bootstrap token. */
  ChannelSecurity operator() throws IOException {
    return ChannelSecurity.client(ca(), Files.readString(tokenFile()).strip());
  }

  /** {@code ab}'s and other CLI clients' options for the same credentials. */
  List<String> clientOptions() {
    return List.of("--ca", ca().toString(), "--token-file", tokenFile().toString());
  }

  /** Asserts that every node's cluster port serves TLS with that node's certificate. */
  void assertClusterPortsServeTls() throws Exception {
    for (int i = 0; i < nodes(); i++) {
      assertThat(clusterPortCertificate(clusterPorts.get(i))).as("node c%d's cluster port", i)
          .contains("CN=c" + i);
    }
  }

  /**
   * The subject of the certificate a TLS handshake with the cluster port on {@code port} shows
   * (trusting the fleet CA only); a plaintext Artery port fails the handshake instead.
   */
  private String clusterPortCertificate(int port) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(ca())) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(null, tmf.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      // TLS 1.3: the client's side completes before the node turns away this certificate-less peer.
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
          .getSubjectX500Principal().getName();
    }
  }

  private static void abfleet(String... args) {
    StringWriter err = new StringWriter();
    assertThat(Main.run(new PrintWriter(err, true), args)).as(err.toString()).isZero();
  }
}
