package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.HostInterference;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchedulerTest {
  final ActorTestKit kit = dev.abfleet.controller.TestActorKits.inMemoryJournal();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void offlineHostReleasesLeaseAndTellsTheExperiment() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();

    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(LeaseHolder.PlanBlock.class);
    assertThat(plan.epoch()).isEqualTo(1);
    Block block = new Block("e1-p0-a0", "e1", 0, "h1", 1, List.of());
    plan.replyTo().tell(new LeaseHolder.BlockPlanned(block));
    assertThat(session.expectMessageClass(AssignBlock.class).block()).isEqualTo(block);

    scheduler.tell(new Scheduler.HostDisconnected("h1", session.ref()));

    var lost = experiment.expectMessageClass(LeaseHolder.LeaseLost.class);
    assertThat(lost.hostId()).isEqualTo("h1");
    assertThat(lost.epoch()).isEqualTo(1);
    assertThat(hosts(scheduler)).extracting(HostView::state).containsExactly(HostView.State.OFFLINE);
  }

  @Test
  void holdsALeaseLostNoticeUntilTheExperimentAsksAgain() {
    ActorRef<Scheduler.Command> first = kit.spawn(Scheduler.create(), "scheduler-before");
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    first.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    first.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(LeaseHolder.PlanBlock.class);
    plan.replyTo().tell(new LeaseHolder.BlockPlanned(new Block("e1-p0-a0", "e1", 0, "h1", 1, List.of())));
    session.expectMessageClass(AssignBlock.class);
    kit.stop(first);

    // A new incarnation recovers the lease; the host registers before the experiment asks.
    ActorRef<Scheduler.Command> second = kit.spawn(Scheduler.create(), "scheduler-after");
    second.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    assertThat(hosts(second)).extracting(HostView::state).containsExactly(HostView.State.IDLE);
    experiment.expectNoMessage(java.time.Duration.ofMillis(200));
    TestProbe<LeaseHolder.Message> asking = kit.createTestProbe();
    second.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", asking.ref()));

    var lost = asking.expectMessageClass(LeaseHolder.LeaseLost.class);
    assertThat(lost.epoch()).isEqualTo(1);
    assertThat(lost.reason()).isEqualTo("host reconnected");
    assertThat(asking.expectMessageClass(LeaseHolder.PlanBlock.class).epoch()).isEqualTo(2);
  }

  @Test
  void reconnectedHostGetsAHigherEpoch() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> first = kit.createTestProbe();
    TestProbe<SessionMessage> second = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), first.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectMessageClass(LeaseHolder.PlanBlock.class);

    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), second.ref()));

    first.expectMessageClass(SessionReplaced.class);
    assertThat(experiment.expectMessageClass(LeaseHolder.LeaseLost.class).epoch()).isEqualTo(1);
    assertThat(experiment.expectMessageClass(LeaseHolder.PlanBlock.class).epoch()).isEqualTo(2);
  }

  @Test
  void blockDoneWithStaleEpochKeepsTheLease() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectMessageClass(LeaseHolder.PlanBlock.class);

    scheduler.tell(new Scheduler.BlockDone("h1", "old", 0));

    assertThat(hosts(scheduler)).extracting(HostView::state).containsExactly(HostView.State.LEASED);
  }

  @Test
  void drainedHostFinishesItsBlockAndTakesNoNewLease() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(LeaseHolder.PlanBlock.class);
    plan.replyTo().tell(new LeaseHolder.BlockPlanned(new Block("b1", "e1", 0, "h1", 1, List.of())));
    session.expectMessageClass(AssignBlock.class);

    HostView drained = changed(drain(scheduler, "h1"));
    assertThat(drained.state()).isEqualTo(HostView.State.DRAINING);
    assertThat(drained.leasedTo()).isEqualTo("e1");
    scheduler.tell(new Scheduler.BlockDone("h1", "b1", 1));

    experiment.expectNoMessage(java.time.Duration.ofMillis(300));
    assertThat(hosts(scheduler)).singleElement().satisfies(h -> {
      assertThat(h.state()).isEqualTo(HostView.State.DRAINING);
      assertThat(h.leasedTo()).isEmpty();
    });
  }

  @Test
  void undrainedHostTakesLeasesAgain() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    drain(scheduler, "h1");
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectNoMessage(java.time.Duration.ofMillis(200));

    TestProbe<Scheduler.HostReply> reply = kit.createTestProbe();
    scheduler.tell(new Scheduler.UndrainHost("h1", reply.ref()));

    assertThat(changed(reply.receiveMessage()).state()).isEqualTo(HostView.State.LEASED);
    assertThat(experiment.expectMessageClass(LeaseHolder.PlanBlock.class).hostId()).isEqualTo("h1");
  }

  @Test
  void drainSurvivesASchedulerRestart() {
    ActorRef<Scheduler.Command> first = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    first.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    drain(first, "h1");
    kit.stop(first);

    ActorRef<Scheduler.Command> second = kit.spawn(Scheduler.create());
    second.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));

    assertThat(hosts(second)).extracting(HostView::state).containsExactly(HostView.State.DRAINING);
  }

  @Test
  void drainingAnUnknownHostNamesTheKnownOnes() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"),
        kit.<SessionMessage>createTestProbe().ref()));

    var reply = drain(scheduler, "h9");

    assertThat(reply).isEqualTo(new Scheduler.UnknownHost("h9", List.of("h1")));
  }

  @Test
  void selectorCheckNamesWhatTheFleetHas() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<Scheduler.SelectorCheck> check = kit.createTestProbe();
    scheduler.tell(new Scheduler.CheckSelector(new HostSelector("vz", "", Map.of(), List.of()), check.ref()));
    assertThat(check.receiveMessage().problem()).as("no host known yet: queue").isEmpty();

    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"),
        kit.<SessionMessage>createTestProbe().ref()));
    scheduler.tell(new Scheduler.CheckSelector(new HostSelector("vz", "", Map.of(), List.of()), check.ref()));

    assertThat(check.receiveMessage().problem())
        .startsWith("no host matches hypervisor=vz; the fleet has: 1 x qemu/x86_64 (tcg)");
  }

  @Test
  void waitingPrStopsANightlyBlockAtTheNextBootAndGetsItsHost() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> nightly = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> pr = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("night", HostSelector.any(), "nightly", nightly.ref()));
    var plan = nightly.expectMessageClass(LeaseHolder.PlanBlock.class);
    plan.replyTo().tell(new LeaseHolder.BlockPlanned(new Block("n-b1", "night", 0, "h1", 1, List.of())));
    session.expectMessageClass(AssignBlock.class);

    scheduler.tell(new Scheduler.RequestHosts("pr", HostSelector.any(), "pr", pr.ref()));

    StopBlock stop = session.expectMessageClass(StopBlock.class);
    assertThat(stop.epoch()).isEqualTo(1);
    assertThat(stop.afterCurrentBoot()).isTrue();
    pr.expectNoMessage(java.time.Duration.ofMillis(200));
    scheduler.tell(new Scheduler.BlockDone("h1", "n-b1", 1));
    var prPlan = pr.expectMessageClass(LeaseHolder.PlanBlock.class);
    assertThat(prPlan.hostId()).isEqualTo("h1");
    assertThat(prPlan.epoch()).isEqualTo(2);
    session.expectNoMessage(java.time.Duration.ofMillis(200));
  }

  @Test
  void threeInfraFailuresInARowQuarantineTheHostUntilItsCoolDown() {
    var policy = new FleetPolicy(3, 0.5, java.time.Duration.ofMillis(700), 2);
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create(policy));
    for (String h : List.of("h1", "h2")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    scheduler.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));
    scheduler.tell(new Scheduler.RunHandled("h1", false, "", false));
    scheduler.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));
    scheduler.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));
    assertThat(hosts(scheduler).get(0).state()).as("a good boot ended the first streak")
        .isEqualTo(HostView.State.IDLE);

    scheduler.tell(new Scheduler.RunHandled("h1", true, "qemu missing", false));

    HostView h1 = hosts(scheduler).get(0);
    assertThat(h1.state()).isEqualTo(HostView.State.QUARANTINED);
    assertThat(h1.stateReason()).isEqualTo("3 INFRA failures in a row; last: qemu missing");
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RequestHosts("e1", new HostSelector("", "", Map.of(), List.of("h1")),
        "pr", experiment.ref()));
    experiment.expectNoMessage(java.time.Duration.ofMillis(300));
    assertThat(experiment.expectMessageClass(LeaseHolder.PlanBlock.class,
        java.time.Duration.ofSeconds(3)).hostId()).as("after the cool-down").isEqualTo("h1");
  }

  @Test
  void hostOftenInterferedIsFlaggedNoisyButStaysInServiceUntilReleased() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"),
        kit.<SessionMessage>createTestProbe().ref()));
    assertThat(hosts(scheduler).get(0).interference().boots()).as("before any boot").isZero();
    for (boolean interfered : new boolean[] {true, false, true, false, false}) {
      scheduler.tell(new Scheduler.RunHandled("h1", false, "", interfered));
    }
    scheduler.tell(new Scheduler.RunHandled("h1", true, "qemu missing", true));
    HostView two = hosts(scheduler).get(0);
    assertThat(two.interference()).as("an INFRA failure says nothing about the host's load")
        .isEqualTo(new HostInterference.Window(5, 2));
    assertThat(two.noisyReason()).isEmpty();

    scheduler.tell(new Scheduler.RunHandled("h1", false, "", true));

    HostView noisy = hosts(scheduler).get(0);
    assertThat(noisy.interference()).isEqualTo(new HostInterference.Window(6, 3));
    assertThat(noisy.noisyReason()).startsWith("3 of its last 6 boots interfered");
    assertThat(noisy.state()).as("a flag, not a quarantine").isEqualTo(HostView.State.IDLE);

    TestProbe<Scheduler.HostReply> reply = kit.createTestProbe();
    scheduler.tell(new Scheduler.ReleaseHost("h1", reply.ref()));
    reply.receiveMessage();
    assertThat(hosts(scheduler).get(0).interference().boots()).as("released: starts over").isZero();
    assertThat(hosts(scheduler).get(0).noisyReason()).isEmpty();
  }

  @Test
  void hostWhoseNoiseDriftedPastItsHistoryIsQuarantinedWithTheReason() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    for (String h : List.of("h1", "h2", "h3", "h4")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    for (int i = 0; i < 10; i++) {
      scheduler.tell(new Scheduler.NoiseObserved("e" + i, Map.of(
          "h1", dev.abfleet.controller.fleet.NoiseHistoryTest.noise(8, 0.02, i),
          "h2", dev.abfleet.controller.fleet.NoiseHistoryTest.noise(8, 0.02, 100 + i))));
    }
    assertThat(hosts(scheduler)).extracting(HostView::state).containsOnly(HostView.State.IDLE);

    scheduler.tell(new Scheduler.NoiseObserved("late", Map.of(
        "h1", dev.abfleet.controller.fleet.NoiseHistoryTest.noise(24, 0.1, 7),
        "h2", dev.abfleet.controller.fleet.NoiseHistoryTest.noise(24, 0.02, 8))));

    HostView h1 = hosts(scheduler).get(0);
    assertThat(h1.state()).isEqualTo(HostView.State.QUARANTINED);
    assertThat(h1.stateReason()).startsWith("paired noise drifted").endsWith("(after experiment late)");
    assertThat(hosts(scheduler).get(1).state()).isEqualTo(HostView.State.IDLE);
  }

  @Test
  void listsEachHostsNoiseOverTheRulesNewestWindowAndNoneForAnUnmeasuredHost() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    for (String h : List.of("h1", "h2")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    double[] residuals = new double[30];
    for (int i = 0; i < 30; i++) {
      residuals[i] = i < 6 ? 0.5 : 0.01 * (i - 5);
    }
    scheduler.tell(new Scheduler.NoiseObserved("e1", Map.of("h1", residuals)));

    // The newest 24 are 0.01 .. 0.24: median 0.125, 100 * expm1(0.125) = 13.3148453 (by hand).
    var noise = hosts(scheduler).get(0).noise();
    assertThat(noise.pairs()).isEqualTo(24);
    assertThat(noise.medianResidualPercent()).isCloseTo(13.3148453, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(hosts(scheduler).get(1).noise().known()).isFalse();
  }

  @Test
  void quarantineStopsAtTheCap() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    for (String h : List.of("h1", "h2", "h3")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    for (int i = 0; i < 3; i++) {
      scheduler.tell(new Scheduler.RunHandled("h1", true, "broken", false));
      scheduler.tell(new Scheduler.RunHandled("h2", true, "broken", false));
    }

    assertThat(hosts(scheduler)).extracting(HostView::state).containsExactly(
        HostView.State.QUARANTINED, HostView.State.IDLE, HostView.State.IDLE);
    assertThat(hosts(scheduler).get(1).infraFailures()).isEqualTo(3);
  }

  @Test
  void operatorReleaseEndsTheQuarantine() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    for (String h : List.of("h1", "h2")) {
      scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost(h),
          kit.<SessionMessage>createTestProbe().ref()));
    }
    for (int i = 0; i < 3; i++) {
      scheduler.tell(new Scheduler.RunHandled("h1", true, "broken", false));
    }
    TestProbe<Scheduler.HostReply> reply = kit.createTestProbe();

    scheduler.tell(new Scheduler.ReleaseHost("h1", reply.ref()));

    HostView h1 = changed(reply.receiveMessage());
    assertThat(h1.state()).isEqualTo(HostView.State.IDLE);
    assertThat(h1.infraFailures()).isZero();
  }

  @Test
  void blockThatNeverFinishesLosesItsLeaseAndTheWorkerGetsACancel() {
    var policy = new FleetPolicy(3, 0.25, java.time.Duration.ofMinutes(1), 1);
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create(policy));
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<LeaseHolder.Message> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(LeaseHolder.PlanBlock.class);
    RunPlan run = new RunPlan("r", "a", 0, null, null, "", 1, 512,
        new dev.abfleet.controller.plan.BenchmarkSpec("", List.of(), 0, 0, 0), 1, "qemu");
    plan.replyTo().tell(new LeaseHolder.BlockPlanned(new Block("b1", "e1", 0, "h1", 1, List.of(run))));
    session.expectMessageClass(AssignBlock.class);

    StopBlock stop = session.expectMessageClass(StopBlock.class, java.time.Duration.ofSeconds(3));

    assertThat(stop.afterCurrentBoot()).isFalse();
    assertThat(stop.reason()).isEqualTo("lease timed out: no BlockFinished after 1 s");
    var lost = experiment.expectMessageClass(LeaseHolder.LeaseLost.class);
    assertThat(lost.epoch()).isEqualTo(1);
    assertThat(experiment.expectMessageClass(LeaseHolder.PlanBlock.class).epoch()).isEqualTo(2);
  }

  private Scheduler.HostReply drain(ActorRef<Scheduler.Command> scheduler, String hostId) {
    TestProbe<Scheduler.HostReply> reply = kit.createTestProbe();
    scheduler.tell(new Scheduler.DrainHost(hostId, "test", reply.ref()));
    return reply.receiveMessage();
  }

  private static HostView changed(Scheduler.HostReply reply) {
    assertThat(reply).isInstanceOf(Scheduler.HostChanged.class);
    return ((Scheduler.HostChanged) reply).host();
  }

  private List<HostView> hosts(ActorRef<Scheduler.Command> scheduler) {
    TestProbe<Scheduler.Hosts> probe = kit.createTestProbe();
    scheduler.tell(new Scheduler.ListHosts(probe.ref()));
    return probe.receiveMessage().hosts();
  }
}
