package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import dev.abfleet.model.Cron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.artifact.ArtifactStore;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.stats.changepoint.Settings;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.testkit.SteppedClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NightlyTest {
  private static final Duration TICK = Duration.ofMillis(20);
  private static final Duration WAIT = Duration.ofSeconds(10);

  final ActorTestKit kit = dev.abfleet.controller.TestActorKits.inMemoryJournal();

  @TempDir Path dir;
  final SteppedClock clock = new SteppedClock(Instant.parse("2026-03-10T00:00:00Z"));

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  private NightlySchedule schedule(String cron, NightlySchedule.Baseline baseline, String hypervisor) throws IOException {
    Files.createDirectories(dir.resolve("builds"));
    Files.writeString(dir.resolve("stock-vmlinuz"), "stock kernel");
    ExperimentSpec template = ExperimentSpec.newBuilder().setName("night")
        .addArms(Arm.newBuilder().setName("baseline").setRole("baseline"))
        .addArms(Arm.newBuilder().setName("candidate").setRole("candidate"))
        .setSelector(HostSelector.newBuilder().setHypervisor(hypervisor))
        .build();
    return new NightlySchedule("night", Cron.parse(cron).cron(), ZoneOffset.UTC,
        new NightlySchedule.Source("newest_in", "builds"), baseline, false, hypervisor.equals("sim"), template, 3);
  }

  private void build(int i) throws IOException {
    Path k = dir.resolve("builds").resolve("vmlinuz-" + i);
    Files.writeString(k, "kernel build " + i);
    Files.setLastModifiedTime(k, FileTime.fromMillis(1_000_000L * (i + 1)));
  }

  private final ArtifactStore store() {
    return new ArtifactStore(new ArtifactStoreSettings(dir.resolve("store"), 1 << 30));
  }

  private ActorRef<Nightly.Command> start(NightlySchedule s, FakeExperiments experiments, ArtifactStore store) {
    return start(s, experiments, store, AaNoise.NONE);
  }

  private ActorRef<Nightly.Command> start(NightlySchedule s, FakeExperiments experiments, ArtifactStore store,
      AaNoise noise) {
    return start(List.of(s), experiments, store, noise);
  }

  private ActorRef<Nightly.Command> start(List<NightlySchedule> s, FakeExperiments experiments, ArtifactStore store,
      AaNoise noise) {
    var nightly = kit.spawn(Nightly.create(s, new RunPreparation(dir, store, spec -> spec), experiments,
        noise, clock, TICK, 0));
    // Answered once recovered: the next fire times are planned from the clock as it is now.
    TestProbe<Nightly.Schedules> probe = kit.createTestProbe();
    nightly.tell(new Nightly.ListSchedules(probe.ref()));
    probe.receiveMessage();
    return nightly;
  }

  private List<RunRecord> runs(ActorRef<Nightly.Command> nightly) {
    return runs(nightly, "night");
  }

  private List<RunRecord> runs(ActorRef<Nightly.Command> nightly, String schedule) {
    TestProbe<StatusReply<Nightly.Runs>> probe = kit.createTestProbe();
    nightly.tell(new Nightly.GetRuns(schedule, probe.ref()));
    return probe.receiveMessage().getValue().runs();
  }

  private List<String> awaitIds(ActorRef<Nightly.Command> nightly, String schedule, int n) {
    return Eventually.until(n + " runs of " + schedule, WAIT, () -> runs(nightly, schedule), r -> r.size() >= n)
        .stream().map(RunRecord::experiment).toList();
  }

  private List<RunRecord> awaitRuns(ActorRef<Nightly.Command> nightly, int n) {
    List<RunRecord> runs = Eventually.until(n + " finished runs", WAIT, () -> runs(nightly), r -> r.size() >= n);
    assertThat(runs).as("finished runs").hasSize(n);
    return runs;
  }

  /**
   * Waits for the Nightly to tick {@code n} more times: it reads the clock once per tick and
   * nowhere else unasked, so n + 1 reads mean n whole ticks since this call. What a tick did not
   * start by then it does not start at this clock time.
   */
  private void awaitTicks(int n) {
    long seen = clock.reads();
    Eventually.await(n + " ticks of the Nightly", WAIT, () -> clock.reads() >= seen + n + 1);
  }

  /** Fires {@code nights} times, a build each, stepping the clock to each fire time. */
  private List<RunRecord> nights(ActorRef<Nightly.Command> nightly, int nights) throws IOException {
    for (int i = 0; i < nights; i++) {
      build(i);
      clock.now = clock.now.plus(Duration.ofMinutes(30));
      awaitRuns(nightly, i + 1);
    }
    return runs(nightly);
  }

  private String trigger(ActorRef<Nightly.Command> nightly, String name) {
    TestProbe<StatusReply<String>> probe = kit.createTestProbe();
    nightly.tell(new Nightly.Trigger(name, probe.ref()));
    StatusReply<String> reply = probe.receiveMessage();
    return reply.isSuccess() ? reply.getValue() : "error: " + reply.getError().getMessage();
  }

  @Test
  void firesAtTheCronTimeAndSubmitsANightlyExperimentOfTheTemplate() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    ArtifactStore store = store();
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "qemu"),
        experiments, store);
    build(0);
    awaitTicks(3);
    assertThat(experiments.submitted).as("nothing is due before 00:30").isEmpty();

    clock.now = Instant.parse("2026-03-10T00:30:00Z");
    RunRecord run = awaitRuns(nightly, 1).get(0);

    assertThat(run.experiment()).isEqualTo("night-20260310T0030Z");
    assertThat(run.date()).isEqualTo("2026-03-10T00:30:00Z");
    assertThat(run.accepted()).isTrue();
    assertThat(run.metric("metadata_stat")).isPresent();
    ExperimentSpec spec = experiments.specs.get(run.experiment());
    assertThat(spec.getPriority()).isEqualTo("nightly");
    assertThat(spec.getArms(1).getBoot().getKernel().getSha256()).isEqualTo(run.candidate().sha256());
    assertThat(spec.getArms(1).getBoot().getKernel().getUri()).as("workers fetch it from the controller")
        .isEqualTo("abfleet:sha256:" + run.candidate().sha256());
    assertThat(spec.getArms(0).getBoot().getKernel().getUri()).isEqualTo("abfleet:sha256:" + run.baseline().sha256());
    assertThat(store.usedBytes()).as("both kernels are in the store").isPositive();
  }

  @Test
  void newestBuildInTheDirectoryIsTheCandidate() throws IOException {
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim"),
        new FakeExperiments(i -> 1000), store());
    build(0);
    build(1);
    Files.writeString(dir.resolve("builds").resolve("config-1"), "not a kernel");
    clock.now = Instant.parse("2026-03-10T00:30:00Z");
    RunRecord run = awaitRuns(nightly, 1).get(0);
    assertThat(run.candidate().path()).endsWith("vmlinuz-1");
    assertThat(run.simulation()).isTrue();
  }

  @Test
  void lastAcceptedBaselineFollowsAcceptedCandidatesOnly() throws IOException {
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"), "sim"),
        new FakeExperiments(i -> i == 1 ? 800 : 1000), store());
    List<RunRecord> runs = nights(nightly, 3);
    assertThat(runs).extracting(RunRecord::accepted).containsExactly(true, false, true);
    assertThat(runs).extracting(RunRecord::decision).containsExactly("accepted", "rejected", "accepted");
    assertThat(runs.get(1).decidedBy()).isEqualTo("gate");
    assertThat(runs.get(1).decisionReason()).isEqualTo("gate failed: metadata_stat -20.0% [-22.0%, -18.0%] regressed");
    assertThat(runs.get(0).decisionReason()).isEqualTo("gate passed: overall no_change");
    assertThat(runs.get(0).decidedAtMs()).isEqualTo(Instant.parse("2026-03-10T00:30:00Z").toEpochMilli());
    assertThat(runs.get(0).baseline().path()).isEqualTo(dir.resolve("stock-vmlinuz").toString());
    // Night 1 regressed: night 2 is still compared with night 0's kernel.
    assertThat(runs.get(1).baseline()).isEqualTo(runs.get(0).candidate());
    assertThat(runs.get(2).baseline()).isEqualTo(runs.get(0).candidate());
  }

  @Test
  void lastAcceptedKernelIsTakenFromTheStoreAfterTheBuildIsGone() throws IOException {
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"), "qemu"),
        new FakeExperiments(i -> 1000), store());
    nights(nightly, 1);
    Files.delete(dir.resolve("builds").resolve("vmlinuz-0"));
    build(1);
    clock.now = clock.now.plus(Duration.ofMinutes(30));
    List<RunRecord> runs = awaitRuns(nightly, 2);
    assertThat(runs.get(1).state()).isEqualTo("completed");
    assertThat(runs.get(1).baseline().sha256()).isEqualTo(runs.get(0).candidate().sha256());
  }

  @Test
  void aRunWithoutAStartingKernelIsRecordedAsFailedWithTheFix() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", ""), "sim"),
        experiments, store());
    build(0);
    clock.now = Instant.parse("2026-03-10T00:30:00Z");
    RunRecord run = awaitRuns(nightly, 1).get(0);
    assertThat(run.state()).isEqualTo("failed");
    assertThat(run.decision()).as("no evidence for its candidate").isEqualTo("rejected");
    assertThat(run.message()).isEqualTo("schedule night (fleet.yaml:3): no run has been accepted yet; give a starting"
        + " kernel, baseline: {last_accepted: KERNEL}");
    assertThat(experiments.submitted).isEmpty();
  }

  @Test
  void triggerRunsNowAndTwiceInAMinuteIsOneRun() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    var nightly = start(schedule("0 3 * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim"),
        experiments, store());
    build(0);
    clock.now = Instant.parse("2026-03-10T00:07:42Z");
    assertThat(trigger(nightly, "night")).isEqualTo("night-20260310T0007Z");
    assertThat(trigger(nightly, "night")).isEqualTo("night-20260310T0007Z");
    awaitRuns(nightly, 1);
    assertThat(trigger(nightly, "night")).isEqualTo("night-20260310T0007Z");
    awaitTicks(3);
    assertThat(experiments.submitted).containsExactly("night-20260310T0007Z");
    assertThat(runs(nightly)).hasSize(1);
    assertThat(trigger(nightly, "nihgt")).isEqualTo("error: no schedule 'nihgt' on this controller; it runs: night");
  }

  @Test
  void aRestartedNightlyFollowsItsStartedRunWithoutSubmittingAgain() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    experiments.hold = true;
    NightlySchedule s = schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim");
    ArtifactStore store = store();
    var first = start(s, experiments, store);
    build(0);
    clock.now = Instant.parse("2026-03-10T00:30:00Z");
    Eventually.await("the run submitted", WAIT, () -> !experiments.submitted.isEmpty());
    assertThat(experiments.submitted).hasSize(1);
    kit.stop(first);

    experiments.hold = false;
    var second = start(s, experiments, store);
    RunRecord run = awaitRuns(second, 1).get(0);
    assertThat(run.experiment()).isEqualTo("night-20260310T0030Z");
    assertThat(run.state()).isEqualTo("completed");
    assertThat(experiments.submitted).as("submitted once").hasSize(1);
  }

  @Test
  void missedFireTimesWhileDownAreSkipped() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    NightlySchedule s = schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim");
    build(0);
    clock.now = Instant.parse("2026-03-10T05:10:00Z");
    var nightly = start(s, experiments, store());
    awaitTicks(3);
    assertThat(experiments.submitted).as("00:30 .. 05:00 passed before the start").isEmpty();
    clock.now = Instant.parse("2026-03-10T05:30:00Z");
    assertThat(awaitRuns(nightly, 1).get(0).experiment()).isEqualTo("night-20260310T0530Z");
  }

  @Test
  void importAddsOnlyRunsItDoesNotKnow() throws IOException {
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim"),
        new FakeExperiments(i -> 1000), store());
    List<RunRecord> old = List.of(record("night-20250101T0230Z", "2025-01-01T02:30:00Z"),
        record("night-20250102T0230Z", "2025-01-02T02:30:00Z"));
    TestProbe<Nightly.Imported> probe = kit.createTestProbe();
    nightly.tell(new Nightly.Import(old, probe.ref()));
    assertThat(probe.receiveMessage()).isEqualTo(new Nightly.Imported(2, 0));
    nightly.tell(new Nightly.Import(old, probe.ref()));
    assertThat(probe.receiveMessage()).isEqualTo(new Nightly.Imported(0, 2));
    assertThat(runs(nightly)).hasSize(2);
  }

  @Test
  void aScheduleFiredRepeatedlyFlagsTheInjectedStepAndNotTheSpike() throws IOException {
    // Nightly centers: 1000 with 1% wiggle, a one-night spike at run 3, a 15% drop from run 8.
    IntToDoubleFunction centers = i -> (i == 3 ? 1400 : i >= 8 ? 850 : 1000) * (1 + 0.01 * ((i * 5) % 3 - 1));
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim"),
        new FakeExperiments(centers), store());
    List<RunRecord> runs = nights(nightly, 16);
    assertThat(runs.get(1).date()).isEqualTo("2026-03-10T01:00:00Z");
    Series h = Series.of("night", "metadata_stat", "center", runs, Settings.DEFAULT);
    assertThat(h.detection().points()).singleElement().satisfies(cp -> {
      assertThat(cp.index()).isEqualTo(8);
      assertThat(cp.relative()).isBetween(-0.17, -0.13);
    });
  }

  @Test
  void anAaScheduleBootsOneKernelAsBothArmsAndHandsItsNoiseOn() throws IOException {
    FakeExperiments experiments = new FakeExperiments(i -> 1000);
    NightlySchedule ab = schedule("0 4 * * *", NightlySchedule.Baseline.SAME_KERNEL, "qemu");
    NightlySchedule aa = new NightlySchedule("noise", ab.cron(), ab.zone(), new NightlySchedule.Source("path",
        "stock-vmlinuz"), NightlySchedule.Baseline.SAME_KERNEL, true, false, ab.template(), 0);
    List<String> recorded = new java.util.concurrent.CopyOnWriteArrayList<>();
    var nightly = start(aa, experiments, store(), (schedule, done, due) ->
        recorded.add(schedule + " " + done.getExperimentId() + " " + due));
    clock.now = Instant.parse("2026-03-10T04:00:00Z");
    Eventually.await("the A/A noise recorded", WAIT, () -> !recorded.isEmpty());
    assertThat(recorded).containsExactly("noise noise-20260310T0400Z 2026-03-10T04:00:00Z");
    ExperimentSpec spec = experiments.specs.get("noise-20260310T0400Z");
    assertThat(spec.getArms(0).getBoot().getKernel()).isEqualTo(spec.getArms(1).getBoot().getKernel());
  }

  @Test
  void firesEachScheduleAtItsOwnTimesAndAClockJumpFiresOnceNotEveryTimeItPassed() throws IOException {
    NightlySchedule night = schedule("30 2 * * *", new NightlySchedule.Baseline("pinned", "stock-vmlinuz"), "sim");
    NightlySchedule noon = new NightlySchedule("noon", Cron.parse("0 12 * * *").cron(), ZoneOffset.UTC,
        night.candidate(), night.baseline(), false, true, night.template(), 0);
    var nightly = start(List.of(night, noon), new FakeExperiments(i -> 1000), store(), AaNoise.NONE);
    build(0);
    clock.now = Instant.parse("2026-03-10T02:30:00Z");
    assertThat(awaitIds(nightly, "night", 1)).containsExactly("night-20260310T0230Z");
    assertThat(runs(nightly, "noon")).isEmpty();

    // A suspended machine wakes two days later: each schedule runs once, late, not once per missed time.
    clock.now = Instant.parse("2026-03-12T13:00:00Z");
    assertThat(awaitIds(nightly, "night", 2)).containsExactly("night-20260310T0230Z", "night-20260311T0230Z");
    assertThat(awaitIds(nightly, "noon", 1)).containsExactly("noon-20260310T1200Z");
    awaitTicks(3);
    assertThat(runs(nightly, "night")).hasSize(2);

    clock.now = Instant.parse("2026-03-13T02:30:00Z");
    assertThat(awaitIds(nightly, "night", 3)).last().isEqualTo("night-20260313T0230Z");
  }

  @Test
  void aMinusFifteenPercentCandidateMeasuredInconclusiveIsHeldAndTheBaselineDoesNotMove() throws IOException {
    // Night 1 carries -15% on metadata_stat, measured too loosely to decide ([-33%, +3%]).
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"), "sim"),
        new FakeExperiments(i -> i == 1 ? 850 : 1000, i -> i == 1 ? 0.18 : 0.02), store());
    List<RunRecord> runs = nights(nightly, 3);

    assertThat(runs).extracting(RunRecord::decision).containsExactly("accepted", "held", "accepted");
    assertThat(runs.get(1).accepted()).isFalse();
    assertThat(runs.get(1).overall()).isEqualTo("inconclusive");
    assertThat(runs.get(1).decisionReason()).isEqualTo("gate inconclusive: metadata_stat -15.0% [-33.0%, +3.0%]"
        + " inconclusive; the baseline stays until abfleet nightly accept or reject night-20260310T0100Z");
    assertThat(runs.get(2).baseline()).as("night 2 is compared with night 0's kernel, not the held one")
        .isEqualTo(runs.get(0).candidate());
  }

  @Test
  void acceptingAHeldRunMovesTheBaselineAndTheDecisionSurvivesARestart() throws IOException {
    NightlySchedule s = schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"), "sim");
    FakeExperiments experiments = new FakeExperiments(i -> 1000, i -> i == 1 ? 0.18 : 0.02);
    ArtifactStore store = store();
    var first = start(s, experiments, store);
    List<RunRecord> runs = nights(first, 2);
    assertThat(runs.get(1).decision()).isEqualTo("held");
    clock.now = clock.now.plus(Duration.ofMinutes(5));

    Nightly.RunDecision d = decide(first, runs.get(1).experiment(), true, "  perf team: noise of host sim-3 ");
    assertThat(d.outcome()).isEqualTo("decided");
    assertThat(d.run().decision()).isEqualTo("accepted");
    assertThat(d.run().accepted()).isTrue();
    assertThat(d.run().decidedBy()).isEqualTo("operator");
    assertThat(d.run().decisionReason()).isEqualTo("perf team: noise of host sim-3");
    assertThat(d.run().decidedAtMs()).isEqualTo(Instant.parse("2026-03-10T01:05:00Z").toEpochMilli());
    kit.stop(first);

    var second = start(s, experiments, store);
    assertThat(runs(second).get(1)).isEqualTo(d.run());
    build(2);
    clock.now = Instant.parse("2026-03-10T01:30:00Z");
    RunRecord next = awaitRuns(second, 3).get(2);
    assertThat(next.baseline()).as("the accepted held run's candidate is the baseline")
        .isEqualTo(runs.get(1).candidate());
  }

  @Test
  void onlyAHeldRunCanBeDecidedAndOnlyOnce() throws IOException {
    var nightly = start(schedule("*/30 * * * *", new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"), "sim"),
        new FakeExperiments(i -> 1000, i -> i == 1 ? 0.18 : 0.02), store());
    List<RunRecord> runs = nights(nightly, 2);

    Nightly.RunDecision unknown = decide(nightly, "night-20990101T0000Z", true, "");
    assertThat(unknown.outcome()).isEqualTo("unknown");
    assertThat(unknown.problem()).startsWith("no nightly run night-20990101T0000Z; the run is its experiment id");
    Nightly.RunDecision accepted = decide(nightly, runs.get(0).experiment(), false, "");
    assertThat(accepted.outcome()).isEqualTo("not_held");
    assertThat(accepted.problem()).isEqualTo("run night-20260310T0030Z is accepted by the gate (gate passed:"
        + " overall no_change); only a held run (gate inconclusive) can be accepted or rejected");

    Nightly.RunDecision rejected = decide(nightly, runs.get(1).experiment(), false, "");
    assertThat(rejected.run().decision()).isEqualTo("rejected");
    assertThat(rejected.run().decisionReason()).isEqualTo("rejected by an operator");
    assertThat(decide(nightly, runs.get(1).experiment(), true, "").outcome()).as("a decision is final")
        .isEqualTo("not_held");
    assertThat(runs(nightly).get(1).accepted()).isFalse();
  }

  @Test
  void acceptingAnOlderHeldRunLeavesTheBaselineOfALaterAcceptedRun() {
    RunRecord held = record("night-1", "2026-03-10T02:30:00Z").decided("held", "gate", "gate inconclusive", 1);
    RunRecord later = record("night-2", "2026-03-11T02:30:00Z");
    NightlyState state = NightlyState.EMPTY.apply(new NightlyEvent.RunsImported(List.of(held, later)))
        .apply(new NightlyEvent.RunDecided("night-1", true, "looked at it", 2));
    assertThat(state.run("night-1")).get().extracting(RunRecord::decision).isEqualTo("accepted");
    assertThat(state.lastAccepted("night")).get().extracting(RunRecord::experiment).isEqualTo("night-2");
    // With no later accepted run the accepted held run is the baseline again.
    NightlyState alone = NightlyState.EMPTY.apply(new NightlyEvent.RunsImported(List.of(held,
        later.decided("held", "gate", "", 1)))).apply(new NightlyEvent.RunDecided("night-1", true, "", 2));
    assertThat(alone.lastAccepted("night")).get().extracting(RunRecord::experiment).isEqualTo("night-1");
  }

  private Nightly.RunDecision decide(ActorRef<Nightly.Command> nightly, String id, boolean accept, String reason) {
    TestProbe<Nightly.RunDecision> probe = kit.createTestProbe();
    nightly.tell(new Nightly.DecideRun(id, accept, reason, probe.ref()));
    return probe.receiveMessage();
  }

  static RunRecord record(String id, String date) {
    return new RunRecord("night", date, id, "completed", new RunRecord.Artifact("/k/a", "a".repeat(64)),
        new RunRecord.Artifact("/k/b", "b".repeat(64)), List.of(), "no_change", true, "", false);
  }
}
