package dev.abfleet.cli.e2e;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Main;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.testkit.TestPostgres;
import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.link.ControllerTargets;
import dev.abfleet.worker.sim.SimArtifacts;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three controller processes on loopback form one cluster over one PostgreSQL database, with TLS
 * on every port: gRPC with worker certificates and API tokens, the cluster port with mutual TLS
 * keyed by the fleet CA (no {@code --insecure-cluster}). Sim workers (one {@code sim-fleet}
 * process, a certificate per host) and {@code ab} get all three addresses. The node that
 * hosts the scheduler singleton is killed (SIGKILL) mid-run: the singleton moves to a survivor
 * and recovers its leases from the journal, workers and ab move to the surviving nodes, the
 * experiment completes with exactly the pairs asked, no host ever runs two boots at once, and a
 * report under a lease epoch not in force is refused and counted.
 */
@Tag("e2e")
class ControllerClusterFailoverE2ETest {
  private static final Pattern SINGLETON =
      Pattern.compile("scheduler singleton running on pekko://abfleet@127\\.0\\.0\\.1:(\\d+)");
  private static final String PASSWORD_ENV = "ABFLEET_E2E_PG_PASSWORD";
  private static final int NODES = 3;
  private static final int PAIRS = 24;
  private static final int SIM_HOSTS = 4;
  private static final String GHOST = "ghost";

  @Test
  @Timeout(420)
  void experimentCompletesWhenTheSchedulerNodeIsKilled(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    for (int i = 0; i < NODES; i++) {
      // One certificate per node: a node is one identity on its gRPC and its cluster port.
      abfleet("certs", "issue", "--controller", "c" + i, "--san", "127.0.0.1,localhost", "--dir", certs.toString());
    }
    // A worker certificate names one host id: one per sim host, and one for the stale reporter.
    for (int h = 1; h <= SIM_HOSTS; h++) {
      abfleet("certs", "issue", "--worker", String.format("sim-%04d", h), "--dir", certs.toString());
    }
    abfleet("certs", "issue", "--worker", GHOST, "--dir", certs.toString());
    Path ca = certs.resolve("ca.pem");
    try (TestPostgres.Database db = TestPostgres.create(TestPostgres.Source.EXTERNAL);
        LocalProcesses fleet = new LocalProcesses(dir)) {
      List<Integer> ports = distinctPorts(2 * NODES);
      List<Integer> grpcPorts = ports.subList(0, NODES);
      List<Integer> clusterPorts = ports.subList(NODES, 2 * NODES);
      String seeds = clusterPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
      String controllers = grpcPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
      List<Path> tokenFiles = new ArrayList<>();
      List<Process> nodes = new ArrayList<>();
      for (int i = 0; i < NODES; i++) {
        // Token auth over the one token store: whichever node finds it empty writes the
        // bootstrap operator token to its own file, and every node accepts it.
        tokenFiles.add(dir.resolve("c" + i + ".token"));
        Path config = Files.writeString(dir.resolve("c" + i + ".yaml"), "controller:\n"
            + "  tls: {ca: " + ca + ", cert: " + certs.resolve("c" + i + ".pem") + ", key: "
            + certs.resolve("c" + i + "-key.pem") + "}\n"
            + "  auth: {mode: tokens, bootstrap_token_file: " + tokenFiles.get(i) + "}\n"
            + "  store:\n    kind: postgres\n    url: " + db.url() + "\n    user: " + db.user() + "\n"
            + "    password_env: " + PASSWORD_ENV + "\n");
        // The first two together race for the journal schema and for forming the cluster; the
        // third joins a formed cluster. (Three JVMs starting at once on two busy cores have
        // stalled Pekko's start-up past its 20 s extension timeout.)
        if (i == 2) {
          fleet.awaitListening(nodes.get(0), "c0", grpcPorts.get(0));
          fleet.awaitListening(nodes.get(1), "c1", grpcPorts.get(1));
        }
        // TLS on both ports, no --insecure-cluster: Artery runs mutual TLS keyed by the fleet CA.
        nodes.add(fleet.startSecuredControllerNode("c" + i, grpcPorts.get(i),
            Map.of(PASSWORD_ENV, db.password()), "--config", config.toString(),
            "--grpc-host", "127.0.0.1", "--cluster-host", "127.0.0.1", "--metrics-port", "0",
            "--cluster-port", String.valueOf(clusterPorts.get(i)), "--seed-nodes", seeds));
      }
      fleet.awaitListening(nodes.get(2), "c2", grpcPorts.get(2));
      for (int i = 0; i < NODES; i++) {
        assertThat(clusterPortCertificate(ca, clusterPorts.get(i))).as("node c%d's cluster port", i)
            .contains("CN=c" + i);
      }
      int doomed = clusterPorts.indexOf(awaitSingletonPort(fleet, Set.of(0, 1, 2)));

      Path tokenFile = Eventually.until("a bootstrap token file", Duration.ofSeconds(60),
          () -> tokenFiles.stream().filter(Files::exists).findFirst(), java.util.Optional::isPresent).get();
      ChannelSecurity operator = ChannelSecurity.client(ca, Files.readString(tokenFile).strip());
      fleet.startSimFleet(controllers, SIM_HOSTS, 0.1, "--ca", ca.toString(),
          "--cert", certs + "/{host}.pem", "--key", certs + "/{host}-key.pem");
      String base = SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri();
      String cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri();
      Process ab = Cli.start(dir, "ab", "ab", "--controller", controllers, "--ca", ca.toString(),
          "--token-file", tokenFile.toString(), "--hypervisor", "sim",
          "--baseline", "base=" + base, "--candidate", "cand=" + cand, "--pairs",
          String.valueOf(PAIRS), "--metrics", "metadata_stat", "--iterations", "3",
          // No --gate: this is about the experiment outliving its scheduler node, not its verdict.
          // An A/A may be called regressed at alpha (seen once: -7.2% [-12.7%, -2.0%] over 24
          // SIMULATED pairs), and the gate would then exit 1.
          "--format", "json");
      String id = AbSubmissions.awaitSubmitted(fleet, ab, Duration.ofSeconds(90));
      int before = awaitPairs(controllers, operator, id, 4);

      nodes.get(doomed).destroyForcibly(); // kill -9: no leave, no goodbye on any stream
      nodes.get(doomed).waitFor(10, TimeUnit.SECONDS);
      Set<Integer> survivors = new HashSet<>(Set.of(0, 1, 2));
      survivors.remove(doomed);
      String surviving = survivors.stream().map(i -> "127.0.0.1:" + grpcPorts.get(i))
          .collect(Collectors.joining(","));
      sendStaleReport(surviving, new ChannelSecurity(ca, certs.resolve(GHOST + ".pem"),
          certs.resolve(GHOST + "-key.pem"), null), id);
      int successor = clusterPorts.indexOf(awaitSingletonPort(fleet, survivors));
      awaitPairs(surviving, operator, id, Math.min(PAIRS, before + 2));

      assertThat(ab.waitFor(300, TimeUnit.SECONDS)).as("ab finished; stderr:\n%s",
          fleet.log("ab")).isTrue();
      String err = fleet.log("ab");
      assertThat(ab.exitValue()).as(err).isEqualTo(ExitCodes.OK);
      assertThat(Cli.read(dir.resolve("ab.out"))).contains("\"state\" : \"completed\"");
      try (ExperimentClient client = new ExperimentClient(surviving, operator)) {
        Experiment done = client.get(id);
        assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
        assertThat(done.getPairsDone()).isEqualTo(PAIRS);
        assertOneBootAtATimePerHost(done);
      }

      assertThat(survivors).contains(successor);
    }
  }

  /** The cluster port of the node whose log last says it runs the singleton, among {@code nodes}. */
  private static int awaitSingletonPort(LocalProcesses fleet, Set<Integer> nodes) throws Exception {
    for (int i = 0; i < 1200; i++) {
      for (int n : nodes) {
        Matcher m = SINGLETON.matcher(fleet.log("c" + n));
        int port = -1;
        while (m.find()) {
          port = Integer.parseInt(m.group(1));
        }
        if (port > 0) {
          return port;
        }
      }
      Thread.sleep(100);
    }
    StringBuilder logs = new StringBuilder();
    for (int n : nodes) {
      logs.append("c").append(n).append(":\n").append(fleet.log("c" + n)).append('\n');
    }
    throw new AssertionError("no node of " + nodes + " runs the scheduler singleton:\n" + logs);
  }

  /**
   * A worker that never held a lease reports a run of the experiment under an old epoch; the
   * controller refuses it before the experiment sees it (the host session was never given that
   * block) and acknowledges it as refused, so a worker stops re-sending it. Counting per host is
   * covered by ReportIntegrityTest. Until the
   * experiment has moved off the killed node nobody answers: the report goes again on a new
   * stream, as a worker's would, with heartbeats meanwhile (a silent stream is closed).
   */
  private static void sendStaleReport(String controllers, ChannelSecurity ghost, String experimentId)
      throws Exception {
    ManagedChannel channel = ControllerTargets.channel(controllers, ghost).build();
    CountDownLatch acked = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicReference<String> refusal = new java.util.concurrent.atomic.AtomicReference<>();
    WorkerMessage hello = WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(GHOST)
        .setArch("x86_64").setCpus(2).setMemoryMib(4096)
        .addHypervisors(HypervisorCapability.newBuilder().setName("qemu").addAccelerators("tcg")))
        .build();
    WorkerMessage stale = WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder()
        .setRunId("stale-run").setExperimentId(experimentId).setBlockId("old-block")
        .setLeaseEpoch(1)).build();
    WorkerMessage heartbeat = WorkerMessage.newBuilder()
        .setHeartbeat(Heartbeat.getDefaultInstance()).build();
    try {
      for (int attempt = 0; attempt < 12 && acked.getCount() > 0; attempt++) {
        StreamObserver<WorkerMessage> out = WorkerServiceGrpc.newStub(channel).connect(
            new StreamObserver<>() {
              @Override
              public void onNext(ControllerMessage m) {
                if (m.hasReportAck() && m.getReportAck().getRunId().equals("stale-run")) {
                  refusal.set(m.getReportAck().getRefused());
                  acked.countDown();
                }
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {}
            });
        out.onNext(hello);
        out.onNext(stale);
        for (int i = 0; i < 20 && !acked.await(500, TimeUnit.MILLISECONDS); i++) {
          out.onNext(heartbeat);
        }
        out.onCompleted();
      }
      assertThat(acked.getCount()).as("stale report acknowledged").isZero();
      assertThat(refusal.get()).as("the stale report was refused, never recorded").isEqualTo("unleased_block");
    } finally {
      channel.shutdownNow();
    }
  }

  /** {@code n} free loopback ports, all different (a gRPC port must not be another node's cluster port). */
  private static List<Integer> distinctPorts(int n) throws java.io.IOException {
    java.util.LinkedHashSet<Integer> ports = new java.util.LinkedHashSet<>();
    while (ports.size() < n) {
      ports.add(LocalProcesses.freePort());
    }
    return List.copyOf(ports);
  }

  /**
   * The subject of the certificate a TLS handshake with the cluster port on {@code port} shows
   * (trusting {@code ca} only); a plaintext Artery port fails the handshake instead.
   */
  private static String clusterPortCertificate(Path ca, int port) throws Exception {
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (var in = Files.newInputStream(ca)) {
      trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    var tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    var context = javax.net.ssl.SSLContext.getInstance("TLSv1.3");
    context.init(null, tmf.getTrustManagers(), null);
    try (var socket = (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      // TLS 1.3: the client's side completes before the node turns away this certificate-less peer.
      socket.startHandshake();
      return ((java.security.cert.X509Certificate) socket.getSession().getPeerCertificates()[0])
          .getSubjectX500Principal().getName();
    }
  }

  private static void abfleet(String... args) {
    java.io.StringWriter err = new java.io.StringWriter();
    assertThat(Main.run(new java.io.PrintWriter(err, true), args)).as(err.toString()).isZero();
  }

  /** Boots on one host never overlap in time (worker clock), and epochs only grow along them. */
  private static void assertOneBootAtATimePerHost(Experiment done) {
    Map<String, List<Boot>> byHost = done.getBootsList().stream()
        .collect(Collectors.groupingBy(Boot::getHostId));
    assertThat(byHost).isNotEmpty();
    byHost.forEach((host, boots) -> {
      List<Boot> sorted = new ArrayList<>(boots);
      sorted.sort(Comparator.comparingLong(b -> b.getTelemetry().getStartedAtMs()));
      for (int i = 1; i < sorted.size(); i++) {
        Boot prev = sorted.get(i - 1);
        Boot next = sorted.get(i);
        assertThat(next.getTelemetry().getStartedAtMs()).as("host %s: %s starts after %s ended",
            host, next.getRunId(), prev.getRunId())
            .isGreaterThanOrEqualTo(prev.getTelemetry().getEndedAtMs());
        assertThat(next.getLeaseEpoch()).as("host %s: epochs only grow", host)
            .isGreaterThanOrEqualTo(prev.getLeaseEpoch());
      }
    });
  }

  /** Waits for {@code pairs} completed pairs and returns how many there are then. */
  private static int awaitPairs(String controllers, ChannelSecurity security, String id, int pairs)
      throws Exception {
    try (ExperimentClient client = new ExperimentClient(controllers, security)) {
      for (int i = 0; i < 1800; i++) {
        Experiment e = client.get(id);
        assertThat(e.getState()).as(e.getMessage()).isIn("running", "completed");
        if (e.getPairsDone() >= pairs) {
          return e.getPairsDone();
        }
        Thread.sleep(100);
      }
    }
    throw new AssertionError("experiment " + id + " did not reach " + pairs + " pairs");
  }
}
