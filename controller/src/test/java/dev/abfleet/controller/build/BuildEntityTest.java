package dev.abfleet.controller.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.controller.plan.BuildInputs;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.controller.schedule.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The build entity under the event-sourced test kit, with a probe as the scheduler. */
class BuildEntityTest {
  static ActorTestKit kit;
  static final BuildInputs INPUTS = new BuildInputs(new BuildInputs.File("linux-6.1.tar.xz", "a".repeat(64)),
      List.of(new BuildInputs.File("fix.patch", "b".repeat(64))), "", null, List.of(), List.of(), "", List.of());
  static final String ID = INPUTS.buildId();

  TestProbe<Scheduler.Command> scheduler;
  EventSourcedBehaviorTestKit<BuildEntity.Command, BuildEvent, BuildState> entity;

  @BeforeAll
  static void start() {
    kit = TestActorKits.eventSourced();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    scheduler = kit.createTestProbe();
    entity = EventSourcedBehaviorTestKit.create(kit.system(), BuildEntity.create(ID, scheduler.ref(), Clock.systemUTC()));
  }

  private Scheduler.RequestHosts submitted() {
    entity.<BuildView>runCommand(replyTo -> new BuildEntity.Submit(INPUTS, replyTo));
    return scheduler.expectMessageClass(Scheduler.RequestHosts.class);
  }

  private LeaseHolder.PlanReply plan(Scheduler.RequestHosts request, String host, long epoch, boolean others) {
    TestProbe<LeaseHolder.PlanReply> reply = kit.createTestProbe();
    request.experiment().tell(new LeaseHolder.PlanBlock(host, epoch, null, others, reply.ref()));
    return reply.expectMessageClass(LeaseHolder.PlanReply.class);
  }

  private BuildEntity.Recorded report(String attemptId, String host, long epoch, BuildOutcome outcome) {
    return entity.<BuildEntity.Recorded>runCommand(
        replyTo -> new BuildEntity.RecordReport(attemptId, host, epoch, outcome, replyTo)).reply();
  }

  private BuildState state() {
    return entity.<BuildView>runCommand(BuildEntity.Get::new).reply().state();
  }

  static BuildOutcome built() {
    return BuildOutcome.built(new BuiltKernel("k".repeat(64), "linux-6.1.tar.xz", "a".repeat(64),
        List.of("fix.patch"), List.of("b".repeat(64)), "abfleet-minimal", "x86_64", "gcc 12", "6.1.0",
        "c".repeat(64), "d".repeat(64), "e".repeat(64), "", 9_000_000, 300_000));
  }

  static BuildOutcome failed(BuildFailure.Kind kind) {
    return BuildOutcome.failed(new BuildFailure(kind, "fs/stat.c", "fs/stat.c:12: error: boom", ""));
  }

  @Test
  void aLeasedHostGetsTheBuildUnderItsEpoch() {
    var request = submitted();
    assertThat(request.selector().buildArch()).isEqualTo("x86_64");
    assertThat(request.openPairs()).isEqualTo(1);

    var reply = plan(request, "w1", 5, false);

    assertThat(reply).isInstanceOf(LeaseHolder.BuildPlanned.class);
    var job = ((LeaseHolder.BuildPlanned) reply).job();
    assertThat(job.hostId()).isEqualTo("w1");
    assertThat(job.leaseEpoch()).isEqualTo(5);
    assertThat(state().status()).isEqualTo(BuildState.Status.BUILDING);
  }

  @Test
  void aLostLeaseQueuesTheBuildAgainAndTheNextAttemptAvoidsThatHost() {
    var request = submitted();
    plan(request, "w1", 5, true);

    request.experiment().tell(new LeaseHolder.LeaseLost("w1", 5, "host went offline"));
    var again = scheduler.expectMessageClass(Scheduler.RequestHosts.class, Duration.ofSeconds(3));

    assertThat(state().status()).isEqualTo(BuildState.Status.QUEUED);
    assertThat(plan(again, "w1", 6, true)).isEqualTo(new LeaseHolder.NoBlockNeeded("build-" + ID, true));
    var second = plan(again, "w2", 1, true);
    assertThat(((LeaseHolder.BuildPlanned) second).job().attemptId()).endsWith("-a2");
    assertThat(report(((LeaseHolder.BuildPlanned) second).job().attemptId(), "w2", 1, built()))
        .isEqualTo(BuildEntity.Recorded.RECORDED);
    assertThat(state().builtOn()).isEqualTo("w2");
    scheduler.expectMessageClass(Scheduler.WithdrawDemand.class);
  }

  @Test
  void aCompileErrorIsFinalAndNeverRetried() {
    var request = submitted();
    var job = ((LeaseHolder.BuildPlanned) plan(request, "w1", 5, true)).job();

    assertThat(report(job.attemptId(), "w1", 5, failed(BuildFailure.Kind.COMPILE))).isEqualTo(BuildEntity.Recorded.RECORDED);

    assertThat(state().status()).isEqualTo(BuildState.Status.FAILED);
    assertThat(state().failure().file()).isEqualTo("fs/stat.c");
    scheduler.expectMessageClass(Scheduler.WithdrawDemand.class);
    scheduler.expectNoMessage(Duration.ofMillis(200));
    assertThat(plan(request, "w2", 1, true)).isInstanceOf(LeaseHolder.NoBlockNeeded.class);
  }

  @Test
  void anInfraFailureIsRetried() {
    var request = submitted();
    var job = ((LeaseHolder.BuildPlanned) plan(request, "w1", 5, true)).job();

    report(job.attemptId(), "w1", 5, failed(BuildFailure.Kind.INFRA));

    scheduler.expectMessageClass(Scheduler.RequestHosts.class);
    assertThat(state().status()).isEqualTo(BuildState.Status.QUEUED);
    assertThat(state().lastRetry()).contains("INFRA on host w1");
  }

  @Test
  void aReportUnderAStaleEpochIsRefused() {
    var request = submitted();
    var job = ((LeaseHolder.BuildPlanned) plan(request, "w1", 5, true)).job();

    assertThat(report(job.attemptId(), "w1", 4, built())).isEqualTo(BuildEntity.Recorded.STALE);
    assertThat(report(job.attemptId(), "w2", 5, built())).isEqualTo(BuildEntity.Recorded.STALE);
    assertThat(state().status()).isEqualTo(BuildState.Status.BUILDING);
  }

  @Test
  void theSameInputsSubmittedTwiceAreOneBuildAndABuiltOneAnswersAtOnce() {
    var request = submitted();
    var job = ((LeaseHolder.BuildPlanned) plan(request, "w1", 5, true)).job();
    report(job.attemptId(), "w1", 5, built());
    scheduler.expectMessageClass(Scheduler.WithdrawDemand.class);

    BuildView again = entity.<BuildView>runCommand(replyTo -> new BuildEntity.Submit(INPUTS, replyTo)).reply();

    assertThat(again.state().status()).isEqualTo(BuildState.Status.BUILT);
    assertThat(again.state().kernel().imageSha256()).isEqualTo("c".repeat(64));
    scheduler.expectNoMessage(Duration.ofMillis(200));
    assertThat(report(job.attemptId(), "w1", 5, built())).isEqualTo(BuildEntity.Recorded.DUPLICATE);
  }

  @Test
  void aBuildThatWasRunningWhenTheControllerStoppedRunsAgain() {
    var request = submitted();
    plan(request, "w1", 5, true);

    entity.restart();

    var again = scheduler.expectMessageClass(Scheduler.RequestHosts.class, Duration.ofSeconds(3));
    assertThat(state().status()).isEqualTo(BuildState.Status.QUEUED);
    assertThat(state().lastRetry()).contains("the controller restarted");
    // Not the host's fault: the same host may take it again (its warm tree has the objects).
    assertThat(plan(again, "w1", 6, true)).isInstanceOf(LeaseHolder.BuildPlanned.class);
  }
}
