package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.UndrainHostRequest;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.link.ControllerTargets;
import dev.abfleet.worker.sim.SimArtifacts;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 29's repro at process level: a TLS controller with token auth, two mTLS sim workers and
 * a running experiment, and two rogue controllers given the victim's cluster port as their seed
 * node: one plaintext ({@code --insecure-cluster}), one TLS with certificates of another CA.
 * Neither becomes a member (the victim's {@code /cluster/members} on loopback lists itself
 * alone), both give up and exit non-zero, and what an attacker would do through a rogue's gRPC
 * port (list hosts and experiments, drain a host, cancel the experiment) gets nowhere: the
 * experiment keeps running and the hosts keep taking leases.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class ClusterRogueE2ETest {
  private static final Pattern MEMBER = Pattern.compile("\"node\"\\s*:\\s*\"([^\"]+)\"");
  // The rogue waits 30 s to join (ClusterFormation's seed-node timeout), after a JVM start that
  // takes up to ~20 s on two busy cores.
  private static final Duration ROGUE_LIFETIME = Duration.ofSeconds(100);

  @Test
  @Timeout(300)
  void roguesOfAnotherCaOrInPlaintextNeitherJoinNorReachTheFleet(
      @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    Path other = dir.resolve("other");
    abfleet("certs", "init", "--dir", certs.toString());
    abfleet("certs", "issue", "--controller", "victim", "--san", "127.0.0.1,localhost", "--dir", certs.toString());
    for (String host : List.of("sim-1", "sim-2")) {
      abfleet("certs", "issue", "--worker", host, "--dir", certs.toString());
    }
    abfleet("certs", "init", "--dir", other.toString());
    abfleet("certs", "issue", "--controller", "rogue", "--san", "127.0.0.1,localhost", "--dir", other.toString());
    int managementPort = LocalProcesses.freePort();
    int victimClusterPort = LocalProcesses.freePort();
    Path victimYaml = Files.writeString(dir.resolve("fleet.yaml"), "controller:\n"
        + "  tls: {ca: certs/ca.pem, cert: certs/victim.pem, key: certs/victim-key.pem}\n"
        + "  auth: {mode: tokens, bootstrap_token_file: operator.token}\n"
        + "  management_port: " + managementPort + "\n");
    // The rogue trusts the victim's CA too (a CA certificate is no secret), so only the victim's
    // check of the rogue's certificate stands between them.
    Files.writeString(other.resolve("both.pem"), Files.readString(other.resolve("ca.pem"))
        + Files.readString(certs.resolve("ca.pem")));
    Path rogueYaml = Files.writeString(dir.resolve("rogue.yaml"), "controller:\n"
        + "  tls: {ca: other/both.pem, cert: other/rogue.pem, key: other/rogue-key.pem}\n"
        + "  auth: {mode: tokens, bootstrap_token_file: rogue.token}\n");
    Path ca = certs.resolve("ca.pem");
    Path operatorToken = dir.resolve("operator.token");

    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      Process victim = fleet.startSecuredControllerNode("victim", fleet.grpcPort, Map.of(),
          "--config", victimYaml.toString(), "--grpc-host", "127.0.0.1", "--metrics-port", "0",
          "--cluster-host", "127.0.0.1", "--cluster-port", String.valueOf(victimClusterPort),
          "--home", Files.createDirectories(dir.resolve("victim-home")).toString());
      fleet.awaitListening(victim, "victim", fleet.grpcPort);
      Eventually.await("the bootstrap token file", Duration.ofSeconds(60), () -> Files.exists(operatorToken));
      String victimNode = "pekko://abfleet@127.0.0.1:" + victimClusterPort;
      assertThat(members(managementPort)).containsExactly(victimNode);

      for (String host : List.of("sim-1", "sim-2")) {
        fleet.startSimWorkerWith(host, "--ca", ca.toString(), "--cert", certs.resolve(host + ".pem").toString(),
            "--key", certs.resolve(host + "-key.pem").toString());
      }
      ManagedChannel operator = channel(fleet.target(), ChannelSecurity.client(ca,
          Files.readString(operatorToken).strip()));
      try {
        var experiments = ExperimentServiceGrpc.newBlockingStub(operator);
        Eventually.until("sim-1 and sim-2 connected", Duration.ofSeconds(90),
            () -> experiments.withDeadlineAfter(10, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance()),
            r -> r.getHostsList().stream().filter(Host::getConnected).count() == 2);

        String base = SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri();
        String cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri();
        // Far more pairs than the test's few minutes can run: it is still running at the end.
        Process ab = Cli.start(dir, "ab", "ab", "--controller", fleet.target(), "--ca", ca.toString(),
            "--token-file", operatorToken.toString(), "--hypervisor", "sim", "--baseline", "base=" + base,
            "--candidate", "cand=" + cand, "--pairs", "1000", "--metrics", "metadata_stat", "--format", "json");
        String id = AbSubmissions.awaitSubmitted(fleet, ab, Duration.ofSeconds(90));
        Eventually.until("experiment " + id + " running with a pair done", Duration.ofSeconds(90),
            () -> get(experiments, id), e -> e.getState().equals("running") && e.getPairsDone() >= 1);

        int plainGrpc = LocalProcesses.freePort();
        int plainCluster = LocalProcesses.freePort();
        int tlsGrpc = LocalProcesses.freePort();
        int tlsCluster = LocalProcesses.freePort();
        String seed = "127.0.0.1:" + victimClusterPort;
        Process plain = fleet.startControllerNode("rogue-plain", plainGrpc, Map.of(), "--insecure-cluster",
            "--metrics-port", "0", "--cluster-port", String.valueOf(plainCluster), "--seed-nodes", seed,
            "--home", Files.createDirectories(dir.resolve("rogue-plain-home")).toString());
        Process otherCa = fleet.startSecuredControllerNode("rogue-other-ca", tlsGrpc, Map.of(),
            "--config", rogueYaml.toString(), "--grpc-host", "127.0.0.1", "--cluster-host", "127.0.0.1",
            "--metrics-port", "0",
            "--cluster-port", String.valueOf(tlsCluster), "--seed-nodes", seed,
            "--home", Files.createDirectories(dir.resolve("rogue-other-ca-home")).toString());

        // An attacker's clients: none at all for the plaintext rogue; for the other-CA rogue,
        // its own CA and whatever operator token it made for itself.
        List<Attack> attacks = List.of(
            new Attack("rogue-plain", plain, plainGrpc, "127.0.0.1:" + plainCluster,
                () -> ChannelSecurity.DEFAULT),
            new Attack("rogue-other-ca", otherCa, tlsGrpc, "127.0.0.1:" + tlsCluster,
                () -> ChannelSecurity.client(other.resolve("ca.pem"), readIfPresent(dir.resolve("rogue.token")))));
        long deadline = System.nanoTime() + ROGUE_LIFETIME.toNanos();
        while (attacks.stream().anyMatch(a -> a.process.isAlive()) && System.nanoTime() < deadline) {
          List<String> seen = members(managementPort);
          assertThat(seen).as("victim's members").containsExactly(victimNode);
          for (Attack a : attacks) {
            a.tryOnce(id);
          }
          Thread.sleep(500);
        }

        // The victim turned the other CA's certificate away in the handshake, though the rogue
        // trusted the victim's.
        assertThat(fleet.log("rogue-other-ca")).contains("Received fatal alert: certificate_unknown");
        for (Attack a : attacks) {
          assertThat(a.process.waitFor(5, TimeUnit.SECONDS)).as("%s gave up within %s; log:\n%s",
              a.name, ROGUE_LIFETIME, fleet.log(a.name)).isTrue();
          assertThat(a.process.exitValue()).as(a.name).isNotZero();
          assertThat(fleet.log(a.name)).as(a.name).contains("Couldn't join seed nodes")
              .contains("did not join the cluster in 30 s")
              .doesNotContain("abfleet controller: gRPC on");
          assertThat(a.grpcAnswered).as("%s's gRPC port answered", a.name).isFalse();
          assertThat(fleet.log("victim")).as("victim log mentions %s as a member", a.name)
              .doesNotContain(a.clusterAddress + "] to [Up]")
              .doesNotContain("Node [pekko://abfleet@" + a.clusterAddress + "] is JOINING");
        }
        assertThat(members(managementPort)).containsExactly(victimNode);
        Experiment after = get(experiments, id);
        assertThat(after.getState()).as(after.getMessage()).isEqualTo("running");
        var hosts = experiments.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
        assertThat(hosts).extracting(Host::getHostId).containsExactly("sim-1", "sim-2");
        assertThat(hosts).allSatisfy(h -> {
          assertThat(h.getState()).as(h.getHostId()).isIn("idle", "leased");
          assertThat(h.getDrainReason()).as(h.getHostId()).isEmpty();
        });
        int pairs = after.getPairsDone();
        Eventually.until("experiment " + id + " still making progress", Duration.ofSeconds(90),
            () -> get(experiments, id), e -> e.getPairsDone() > pairs);
      } finally {
        operator.shutdownNow();
      }
    }
  }

  /** One rogue process and what an attacker tries through its gRPC port while it lives. */
  private static final class Attack {
    final String name;
    final Process process;
    final int grpcPort;
    final String clusterAddress;
    final java.util.function.Supplier<ChannelSecurity> credentials;
    boolean grpcAnswered;

    Attack(String name, Process process, int grpcPort, String clusterAddress,
        java.util.function.Supplier<ChannelSecurity> credentials) {
      this.name = name;
      this.process = process;
      this.grpcPort = grpcPort;
      this.clusterAddress = clusterAddress;
      this.credentials = credentials;
    }

    /**
     * If the rogue's gRPC port accepts a connection, lists hosts and experiments, drains and
     * undrains sim-1 and cancels the victim's experiment through it: every call must fail or
     * show nothing of the victim's fleet.
     */
    void tryOnce(String experimentId) {
      // The port was free when picked and the rogue never binds it: another test's process may
      // take it meanwhile, so only the rogue's own listener counts as an answer.
      if (!process.isAlive() || !accepts(grpcPort)
          || !dev.abfleet.testkit.Ports.listensOn(process.toHandle(), grpcPort)) {
        return;
      }
      grpcAnswered = true;
      ManagedChannel ch = channel("127.0.0.1:" + grpcPort, credentials.get());
      try {
        var experiments = ExperimentServiceGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS);
        var fleet = FleetServiceGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS);
        List<String> leaks = new ArrayList<>();
        attempt(() -> experiments.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList(),
            hosts -> hosts.isEmpty() ? null : "ListHosts answered " + hosts, leaks);
        attempt(() -> experiments.listExperiments(ListExperimentsRequest.getDefaultInstance()),
            r -> r.toString().contains(experimentId) ? "ListExperiments listed " + experimentId : null, leaks);
        attempt(() -> fleet.drainHost(DrainHostRequest.newBuilder().setHostId("sim-1").setReason("rogue").build()),
            h -> "DrainHost answered " + h, leaks);
        attempt(() -> fleet.undrainHost(UndrainHostRequest.newBuilder().setHostId("sim-1").build()),
            h -> "UndrainHost answered " + h, leaks);
        attempt(() -> experiments.cancelExperiment(CancelExperimentRequest.newBuilder()
                .setExperimentId(experimentId).setReason("rogue").build()),
            e -> "CancelExperiment answered " + e.getState(), leaks);
        assertThat(leaks).as("through %s", name).isEmpty();
      } finally {
        ch.shutdownNow();
      }
    }
  }

  /** Runs {@code call}; a failed call is the expected outcome, an answer is judged by {@code leak}. */
  private static <T> void attempt(java.util.concurrent.Callable<T> call, Function<T, String> leak, List<String> leaks) {
    try {
      String why = leak.apply(call.call());
      if (why != null) {
        leaks.add(why);
      }
    } catch (StatusRuntimeException refused) {
      // Refused, unavailable or unknown: the attacker got nothing.
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Node addresses of the victim's members, from Pekko Management on loopback. */
  private static List<String> members(int managementPort) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + managementPort + "/cluster/members"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<String> nodes = new ArrayList<>();
    int membersAt = r.body().indexOf("\"members\"");
    int unreachableAt = r.body().indexOf("\"unreachable\"");
    // Every node the victim knows of in any state, the unreachable ones included.
    Matcher m = MEMBER.matcher(r.body());
    while (m.find()) {
      if (!nodes.contains(m.group(1))) {
        nodes.add(m.group(1));
      }
    }
    assertThat(membersAt).as(r.body()).isNotNegative();
    assertThat(unreachableAt).as(r.body()).isNotNegative();
    return nodes;
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 300);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Experiment get(ExperimentServiceGrpc.ExperimentServiceBlockingStub stub, String id) {
    return stub.withDeadlineAfter(10, TimeUnit.SECONDS)
        .getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build());
  }

  private static ManagedChannel channel(String target, ChannelSecurity security) {
    return ControllerTargets.channel(target, security).build();
  }

  private static String readIfPresent(Path token) {
    try {
      return Files.exists(token) ? Files.readString(token).strip() : null;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void abfleet(String... args) {
    StringWriter err = new StringWriter();
    assertThat(Main.run(new PrintWriter(err, true), args)).as(err.toString()).isZero();
  }
}
