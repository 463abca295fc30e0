package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.testkit.TestPostgres;
import dev.abfleet.worker.sim.SimArtifacts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The scheduler singleton's node killed (SIGKILL) while pairs complete, round after round: three
 * controller nodes on PostgreSQL with TLS on every port (mutual TLS on the cluster port, worker
 * certificates and API tokens on gRPC: {@link SecuredCluster}), four sim workers, one 24-pair experiment per round; each round
 * kills the node that runs the singleton at a different pair, restarts it (same ports, as a
 * supervisor would) and checks that the experiment completes with every pair exactly once and
 * that no gap between two pair completions reaches the lease timeout.
 *
 * <p>Rounds: system property {@code abfleet.failover.rounds}, 1 by default (CI); the recorded
 * 10-round run (BENCHMARKS.md) passes 10. Each round prints a {@code failover round} line (kill
 * pair, gap after the kill, largest gap) and the last round a summary of the gaps.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class SchedulerFailoverRoundsE2ETest {
  private static final Pattern SINGLETON =
      Pattern.compile("scheduler singleton running on pekko://abfleet@127\\.0\\.0\\.1:(\\d+)");
  private static final int NODES = 3;
  private static final int SIM_HOSTS = 4;
  private static final int PAIRS = 24;
  private static final int BOOT_TIMEOUT_S = 30;
  /** A block is two boots: the scheduler revokes its lease after 2 x their timeouts. */
  private static final Duration LEASE_TIMEOUT = Duration.ofSeconds(2 * 2 * BOOT_TIMEOUT_S);

  /** One round's gaps, in ms: from the kill to the next pair completed, and the largest. */
  record Round(int killedAtPair, long afterKillMs, long largestGapMs) {}

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES)
  void everyExperimentCompletesWhenTheSchedulerNodeIsKilledEachRound(
      @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
    int rounds = Integer.getInteger("abfleet.failover.rounds", 1);
    try (TestPostgres.Database db = TestPostgres.create(TestPostgres.Source.EXTERNAL);
        LocalProcesses fleet = new LocalProcesses(dir)) {
      Cluster cluster = new Cluster(fleet, new SecuredCluster(dir, db, NODES, SIM_HOSTS));
      cluster.start();
      fleet.startSimFleet(cluster.controllers(), SIM_HOSTS, 0.1, cluster.secured.simFleetOptions());
      String base = SimArtifacts.kernel(dir.resolve("kernels"), "base", Map.of()).getUri();
      String cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand", Map.of()).getUri();

      List<Round> done = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        done.add(round(dir, fleet, cluster, round, base, cand));
        Round r = done.get(round);
        System.out.printf("failover round %d: singleton node killed at pair %d; %d/%d pairs;"
            + " next pair %d ms after the kill; largest gap between pairs %d ms%n",
            round + 1, r.killedAtPair(), PAIRS, PAIRS, r.afterKillMs(), r.largestGapMs());
      }
      System.out.println("failover summary over " + rounds + " rounds: after kill (ms) "
          + summary(done.stream().map(Round::afterKillMs).toList()) + "; largest gap (ms) "
          + summary(done.stream().map(Round::largestGapMs).toList()));
    }
  }

  private static Round round(Path dir, LocalProcesses fleet, Cluster cluster, int round,
      String base, String cand) throws Exception {
    String name = "ab-" + round;
    List<String> args = new ArrayList<>(List.of("ab", "--controller", cluster.controllers()));
    args.addAll(cluster.secured.clientOptions());
    args.addAll(List.of("--hypervisor", "sim", "--baseline", "base=" + base, "--candidate", "cand=" + cand,
        "--pairs", String.valueOf(PAIRS), "--metrics", "metadata_stat", "--iterations", "3", "--boot-timeout", String.valueOf(BOOT_TIMEOUT_S),
        // No --gate: an A/A may be called regressed at alpha, which says nothing about failover.
        "--format", "json"));
    Process ab = Cli.start(dir, name, args.toArray(String[]::new));
    try {
      return measure(fleet, cluster, round, name, ab);
    } finally {
      // Not one of the fleet's processes: a failed round must not leave it waiting.
      ab.destroyForcibly();
    }
  }

  /** Kills the singleton's node while {@code ab} (log {@code name}) runs; the round's gaps. */
  private static Round measure(LocalProcesses fleet, Cluster cluster, int round, String name,
      Process ab) throws Exception {
    String id = Eventually.until(name + " submitting", Duration.ofSeconds(90), () -> {
      assertThat(ab.isAlive()).as("ab is running: %s", fleet.log(name)).isTrue();
      return Pattern.compile("experiment (\\S+) submitted to ").matcher(fleet.log(name));
    }, Matcher::find).group(1);
    // Kill at a different pair each round (4..14), always while pairs complete.
    int killAt = 4 + (round * 5) % 11;
    awaitPairs(cluster, id, killAt);
    long killedAtMs = System.currentTimeMillis();
    cluster.killSingletonNode();

    assertThat(ab.waitFor(10, TimeUnit.MINUTES)).as("%s finished; stderr:\n%s", name, fleet.log(name)).isTrue();
    assertThat(ab.exitValue()).as(fleet.log(name)).isEqualTo(ExitCodes.OK);
    try (ExperimentClient client = new ExperimentClient(cluster.controllers(), cluster.secured.operator())) {
      Experiment experiment = client.get(id);
      AbSubmissions.assertEveryPairOnce(experiment, PAIRS);
      List<Long> completions = completions(experiment);
      long afterKill = completions.stream().filter(t -> t >= killedAtMs).findFirst()
          .map(t -> t - killedAtMs).orElse(0L);
      long largest = 0;
      for (int i = 1; i < completions.size(); i++) {
        largest = Math.max(largest, completions.get(i) - completions.get(i - 1));
      }
      assertThat(Duration.ofMillis(Math.max(largest, afterKill)))
          .as("no stall as long as the lease timeout").isLessThan(LEASE_TIMEOUT);
      return new Round(killAt, afterKill, largest);
    }
  }

  /** When each pair completed (its last boot ended, worker clock: same machine), ascending. */
  static List<Long> completions(Experiment experiment) {
    Map<Integer, Long> byPair = new TreeMap<>();
    for (Boot b : experiment.getBootsList()) {
      if (!b.getWarmup()) {
        byPair.merge(b.getPairIndex(), b.getTelemetry().getEndedAtMs(), Math::max);
      }
    }
    return byPair.values().stream().sorted().toList();
  }

  /** "min / median / p90 / max" of {@code values}. */
  static String summary(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return sorted.get(0) + " / " + sorted.get(n / 2) + " / " + sorted.get(Math.min(n - 1, (int) Math.ceil(0.9 * n) - 1))
        + " / " + sorted.get(n - 1);
  }

  private static void awaitPairs(Cluster cluster, String id, int pairs) throws Exception {
    try (ExperimentClient client = new ExperimentClient(cluster.controllers(), cluster.secured.operator())) {
      Eventually.until("experiment " + id + " at " + pairs + " pairs", Duration.ofMinutes(5), () -> {
        Experiment e = client.get(id);
        assertThat(e.getState()).as(e.getMessage()).isIn("running", "completed");
        return e;
      }, e -> e.getPairsDone() >= pairs);
    }
  }

  /**
   * Three controller nodes with TLS on every port ({@link SecuredCluster}); a killed node comes
   * back on the same ports under a new log name.
   */
  static final class Cluster {
    private final LocalProcesses fleet;
    final SecuredCluster secured;
    private final List<Process> nodes = new ArrayList<>();
    private final List<String> logs = new ArrayList<>();
    private int restarts;

    Cluster(LocalProcesses fleet, SecuredCluster secured) {
      this.fleet = fleet;
      this.secured = secured;
    }

    String controllers() {
      return secured.controllers();
    }

    void start() throws Exception {
      for (int i = 0; i < NODES; i++) {
        // Two first (they race for the schema and form the cluster), the third joins them.
        if (i == 2) {
          fleet.awaitListening(nodes.get(0), logs.get(0), secured.grpcPort(0));
          fleet.awaitListening(nodes.get(1), logs.get(1), secured.grpcPort(1));
        }
        logs.add("c" + i);
        nodes.add(secured.start(fleet, i, "c" + i));
      }
      fleet.awaitListening(nodes.get(2), logs.get(2), secured.grpcPort(2));
      secured.assertClusterPortsServeTls();
      singletonNode(Map.of());
    }

    /**
     * Kills the singleton's node (SIGKILL), waits until a survivor runs the singleton, then
     * starts the killed node again on its ports.
     */
    void killSingletonNode() throws Exception {
      Map<Integer, Integer> seen = singletonLines();
      int doomed = singletonNode(Map.of());
      nodes.get(doomed).destroyForcibly();
      nodes.get(doomed).waitFor(10, TimeUnit.SECONDS);
      seen.remove(doomed);
      int successor = singletonNode(seen);
      assertThat(successor).isNotEqualTo(doomed);
      String log = "c" + doomed + "-r" + ++restarts;
      logs.set(doomed, log);
      nodes.set(doomed, secured.restart(fleet, doomed, log));
      fleet.awaitListening(nodes.get(doomed), log, secured.grpcPort(doomed));
    }

    /** Node index -> how many times its log says it started the singleton. */
    private Map<Integer, Integer> singletonLines() throws Exception {
      Map<Integer, Integer> lines = new TreeMap<>();
      for (int i = 0; i < NODES; i++) {
        Matcher m = SINGLETON.matcher(fleet.log(logs.get(i)));
        int n = 0;
        while (m.find()) {
          n++;
        }
        lines.put(i, n);
      }
      return lines;
    }

    /**
     * The node running the singleton: with {@code before} empty, a node whose log says so
     * (the singleton moves only when its node dies, whose log is then replaced); else a node of
     * {@code before} whose log says so more often than then.
     */
    private int singletonNode(Map<Integer, Integer> before) throws Exception {
      return Eventually.until("a node running the scheduler singleton", Duration.ofMinutes(2), () -> {
        Map<Integer, Integer> now = singletonLines();
        for (int i = 0; i < NODES; i++) {
          boolean started = before.isEmpty() ? now.get(i) > 0
              : before.containsKey(i) && now.get(i) > before.get(i);
          if (started && clusterPortOfSingleton(i)) {
            return i;
          }
        }
        return -1;
      }, i -> i >= 0);
    }

    /** True when node {@code i}'s last singleton line names its own cluster port. */
    private boolean clusterPortOfSingleton(int i) throws Exception {
      Matcher m = SINGLETON.matcher(fleet.log(logs.get(i)));
      int port = -1;
      while (m.find()) {
        port = Integer.parseInt(m.group(1));
      }
      return port == secured.clusterPort(i);
    }
  }
}
