package dev.abfleet.cli.e2e;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.artifact.ArtifactCache;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priorities on a real fleet: a controller and three worker processes booting a real kernel in
 * QEMU. A {@code pr} A/B submitted while a long {@code nightly} experiment holds every host takes
 * hosts at the next boot boundary, finishes first, and the nightly loses no pair to it.
 */
@Tag("e2e")
class PrPreemptsNightlyE2ETest {
  private static final List<String> HOSTS = List.of("w1", "w2", "w3");
  private static final int NIGHTLY_PAIRS = 9;
  private static final int PR_PAIRS = 2;
  /**
   * Added to one boot's duration (the longest warm nightly boot, see {@link #warmBoots}) for the
   * pr's first boot to start: the stop, the preempted boot's report, BlockFinished, lease
   * release, re-lease, plan and assignment round trips on loopback (tens of ms each) and jitter
   * on a shared 2-core machine. The pr boot's start is taken before its staging.
   */
  private static final long SCHEDULING_ALLOWANCE_MS = 3_000;

  @Test
  void prSubmittedWhileNightlyHoldsEveryHostStartsWithinOneBootAndFinishesFirst(@TempDir Path dir)
      throws Exception {
    long testStart = System.nanoTime();
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      HOSTS.forEach(h -> start(fleet, h));
      FleetProcessesE2ETest.awaitHosts(fleet, HOSTS.size());
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        String nightly = client.submit("", spec("nightly", NIGHTLY_PAIRS, "slub_debug=FZPU"));
        awaitNightlyHoldsEveryHost(fleet, client, nightly);

        long submittedAt = System.currentTimeMillis();
        String pr = client.submit("", spec("pr", PR_PAIRS, ""));
        Map<String, Experiment> done = awaitBoth(client, fleet, nightly, pr);
        Experiment n = done.get(nightly);
        Experiment p = done.get(pr);

        assertThat(p.getState()).as(p.getMessage()).isEqualTo("completed");
        assertThat(n.getState()).as(n.getMessage()).isEqualTo("completed");
        assertThat(lastEnd(p)).as("pr's last boot ends before the nightly's").isLessThan(lastEnd(n));

        long longestNightlyBoot = warmBoots(n).stream().mapToLong(PrPreemptsNightlyE2ETest::wallMs)
            .max().orElseThrow();
        long prFirstStart = p.getBootsList().stream().mapToLong(b -> b.getTelemetry().getStartedAtMs())
            .min().orElseThrow();
        long delay = prFirstStart - submittedAt;
        System.out.printf("pr start delay %d ms; nightly boot wall ms: min %d, longest warm %d, longest with"
                + " first boots %d; nightly retried blocks %d; test wall %d s%n", delay,
            n.getBootsList().stream().mapToLong(PrPreemptsNightlyE2ETest::wallMs).min().orElseThrow(),
            longestNightlyBoot, n.getBootsList().stream().mapToLong(PrPreemptsNightlyE2ETest::wallMs).max().orElseThrow(),
            n.getRetriedBlocks(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - testStart));
        assertThat(delay).as("pr's first boot after submit (ms); longest nightly boot %d ms", longestNightlyBoot)
            .isLessThanOrEqualTo(longestNightlyBoot + SCHEDULING_ALLOWANCE_MS);

        // A failed boot (e.g. BOOT) is a result about its arm and still fills its place in the pair.
        List.of(n, p).forEach(e -> e.getBootsList().stream().filter(b -> !b.getStatus().equals("ok"))
            .forEach(b -> System.out.printf("boot %s on %s: %s %s%n%s%n", b.getRunId(), b.getHostId(),
                b.getStatus(), b.getMessage(), b.getConsoleTail())));
        assertEveryPairHasOneBootPerArm(n, NIGHTLY_PAIRS);
        assertEveryPairHasOneBootPerArm(p, PR_PAIRS);
        assertThat(n.getComparisonsList()).as("nightly verdicts").isNotEmpty()
            .allSatisfy(c -> assertThat(c.getVerdict()).isNotEmpty());
        assertThat(p.getComparisonsList()).as("pr verdicts").isNotEmpty()
            .allSatisfy(c -> assertThat(c.getVerdict()).isNotEmpty());
        assertNoHostRanTwoBootsAtOnce(List.of(n, p));
      }
    }
  }

  private static void start(LocalProcesses fleet, String host) {
    try {
      fleet.startWorker(host);
    } catch (Exception e) {
      throw new AssertionError("worker " + host + " did not start", e);
    }
  }

  static ExperimentSpec spec(String priority, int pairs, String candidateCmdline) throws Exception {
    Path k = Kernels.cloud();
    Artifact kernel = Artifact.newBuilder().setSha256(ArtifactCache.sha256(k)).setUri(k.toString()).build();
    return ExperimentSpec.newBuilder()
        .setName(priority)
        .addArms(Arm.newBuilder().setName("stock").setRole("baseline").mergeBoot(BootSpec.newBuilder().setKernel(kernel).build()))
        .addArms(Arm.newBuilder().setName("cand").setRole("candidate").setBoot(BootSpec.newBuilder().setKernel(kernel)
            .setCmdlineExtra(candidateCmdline)))
        .setBenchmark(Benchmark.newBuilder().setHarness("fleetbench").addMetrics("create_delete")
            .setIterations(3).setIterationMs(100))
        .setSelector(HostSelector.newBuilder().setHypervisor("qemu").addAllHosts(HOSTS))
        .setPolicy(Policy.newBuilder().setPairs(pairs).setBootTimeoutS(120)
            .setHostQuiet(LocalProcesses.SHARED_MACHINE))
        .setPriority(priority)
        .build();
  }

  /**
   * Every host leased to the nightly and at least one boot per host recorded, so each worker has
   * staged its kernel and guest image and the boots that follow take their usual time.
   */
  private static void awaitNightlyHoldsEveryHost(LocalProcesses fleet, ExperimentClient client, String id)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      Experiment e = client.get(id);
      Set<String> booted = new HashSet<>();
      e.getBootsList().forEach(b -> booted.add(b.getHostId()));
      List<Host> hosts = FleetProcessesE2ETest.hosts(fleet);
      boolean allLeased = hosts.stream().filter(h -> id.equals(h.getLeasedTo())).count() == HOSTS.size();
      if (allLeased && booted.containsAll(HOSTS)) {
        return;
      }
      assertThat(e.getState()).as(e.getMessage()).isEqualTo("running");
      Thread.sleep(200);
    }
    throw new AssertionError("the nightly never held every host; controller log:\n" + fleet.log("controller"));
  }

  private static Map<String, Experiment> awaitBoth(ExperimentClient client, LocalProcesses fleet, String nightly,
      String pr) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(6);
    Map<String, Experiment> done = new HashMap<>();
    while (System.nanoTime() < deadline && done.size() < 2) {
      for (String id : List.of(pr, nightly)) {
        Experiment e = client.get(id);
        if (!done.containsKey(id) && !e.getState().equals("running")) {
          done.put(id, e);
        }
      }
      Thread.sleep(500);
    }
    if (done.size() < 2) {
      throw new AssertionError("experiments did not finish; controller log:\n" + fleet.log("controller"));
    }
    return done;
  }

  /** Wall time of a boot on its worker, staging included. */
  private static long wallMs(Boot b) {
    return b.getTelemetry().getEndedAtMs() - b.getTelemetry().getStartedAtMs();
  }

  /**
   * The nightly's boots without each host's first one: those start cold (guest image built,
   * three VMs starting at once) and take up to 3x a usual boot here, which would make "one boot"
   * a loose bound. The pr is submitted only after every host's first boot has ended.
   */
  private static List<Boot> warmBoots(Experiment e) {
    Map<String, Boot> first = new HashMap<>();
    e.getBootsList().forEach(b -> first.merge(b.getHostId(), b,
        (x, y) -> x.getTelemetry().getStartedAtMs() <= y.getTelemetry().getStartedAtMs() ? x : y));
    return e.getBootsList().stream().filter(b -> !first.containsValue(b)).toList();
  }

  private static long lastEnd(Experiment e) {
    return e.getBootsList().stream().mapToLong(b -> b.getTelemetry().getEndedAtMs()).max().orElseThrow();
  }

  /** pairs_done is the wanted count; each pair one boot per arm, one host, each run id once. */
  private static void assertEveryPairHasOneBootPerArm(Experiment e, int pairs) {
    assertThat(e.getPairsDone()).isEqualTo(pairs);
    assertThat(FleetProcessesE2ETest.pairedBoots(e)).hasSize(2 * pairs);
    Set<String> runIds = new HashSet<>();
    Set<String> pairArm = new HashSet<>();
    for (Boot b : FleetProcessesE2ETest.pairedBoots(e)) {
      assertThat(runIds.add(b.getRunId())).as("run recorded once: %s", b.getRunId()).isTrue();
      assertThat(pairArm.add(b.getPairIndex() + "/" + b.getArm())).as("pair %d arm %s once", b.getPairIndex(),
          b.getArm()).isTrue();
    }
    FleetProcessesE2ETest.pairs(e).forEach((pair, boots) ->
        assertThat(boots.get(0).getHostId()).as("pair %d on one host", pair).isEqualTo(boots.get(1).getHostId()));
  }

  /** Per host, every boot of either experiment starts after the previous one ended. */
  private static void assertNoHostRanTwoBootsAtOnce(List<Experiment> experiments) {
    Map<String, List<Boot>> byHost = new HashMap<>();
    experiments.forEach(e -> e.getBootsList().forEach(b -> byHost.computeIfAbsent(b.getHostId(),
        h -> new ArrayList<>()).add(b)));
    byHost.forEach((host, boots) -> {
      boots.sort(Comparator.comparingLong(b -> b.getTelemetry().getStartedAtMs()));
      for (int i = 0; i < boots.size(); i++) {
        var t = boots.get(i).getTelemetry();
        assertThat(t.getStartedAtMs()).as("start time of %s", boots.get(i).getRunId()).isPositive();
        assertThat(t.getEndedAtMs()).as("end of %s", boots.get(i).getRunId()).isGreaterThanOrEqualTo(t.getStartedAtMs());
        if (i > 0) {
          assertThat(t.getStartedAtMs()).as("%s on %s starts after %s ended", boots.get(i).getRunId(), host,
              boots.get(i - 1).getRunId()).isGreaterThanOrEqualTo(boots.get(i - 1).getTelemetry().getEndedAtMs());
        }
      }
    });
  }
}
