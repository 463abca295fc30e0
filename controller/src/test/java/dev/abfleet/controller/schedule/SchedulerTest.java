package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.SessionMessage;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchedulerTest {
  final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.persistence.journal.plugin = "pekko.persistence.journal.inmem"
      pekko.persistence.snapshot-store.plugin = ""
      """));

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void offlineHostReleasesLeaseAndTellsTheExperiment() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<ExperimentEntity.Command> experiment = kit.createTestProbe();

    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(ExperimentEntity.PlanBlock.class);
    assertThat(plan.epoch()).isEqualTo(1);
    Block block = new Block("e1-p0-a0", "e1", 0, "h1", 1, List.of());
    plan.replyTo().tell(new ExperimentEntity.BlockPlanned(block));
    assertThat(session.expectMessageClass(AssignBlock.class).block()).isEqualTo(block);

    scheduler.tell(new Scheduler.HostDisconnected("h1", session.ref()));

    var lost = experiment.expectMessageClass(ExperimentEntity.LeaseLost.class);
    assertThat(lost.hostId()).isEqualTo("h1");
    assertThat(lost.epoch()).isEqualTo(1);
    assertThat(hosts(scheduler)).extracting(HostView::state).containsExactly(HostView.State.OFFLINE);
  }

  @Test
  void reconnectedHostGetsAHigherEpoch() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> first = kit.createTestProbe();
    TestProbe<SessionMessage> second = kit.createTestProbe();
    TestProbe<ExperimentEntity.Command> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), first.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectMessageClass(ExperimentEntity.PlanBlock.class);

    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), second.ref()));

    first.expectMessageClass(SessionReplaced.class);
    assertThat(experiment.expectMessageClass(ExperimentEntity.LeaseLost.class).epoch()).isEqualTo(1);
    assertThat(experiment.expectMessageClass(ExperimentEntity.PlanBlock.class).epoch()).isEqualTo(2);
  }

  @Test
  void blockDoneWithStaleEpochKeepsTheLease() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<ExperimentEntity.Command> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectMessageClass(ExperimentEntity.PlanBlock.class);

    scheduler.tell(new Scheduler.BlockDone("h1", "old", 0));

    assertThat(hosts(scheduler)).extracting(HostView::state).containsExactly(HostView.State.LEASED);
  }

  @Test
  void drainedHostFinishesItsBlockAndTakesNoNewLease() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<ExperimentEntity.Command> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    var plan = experiment.expectMessageClass(ExperimentEntity.PlanBlock.class);
    plan.replyTo().tell(new ExperimentEntity.BlockPlanned(new Block("b1", "e1", 0, "h1", 1, List.of())));
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
    TestProbe<ExperimentEntity.Command> experiment = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    drain(scheduler, "h1");
    scheduler.tell(new Scheduler.RequestHosts("e1", HostSelector.any(), "adhoc", experiment.ref()));
    experiment.expectNoMessage(java.time.Duration.ofMillis(200));

    TestProbe<Scheduler.HostReply> reply = kit.createTestProbe();
    scheduler.tell(new Scheduler.UndrainHost("h1", reply.ref()));

    assertThat(changed(reply.receiveMessage()).state()).isEqualTo(HostView.State.LEASED);
    assertThat(experiment.expectMessageClass(ExperimentEntity.PlanBlock.class).hostId()).isEqualTo("h1");
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
    TestProbe<ExperimentEntity.Command> nightly = kit.createTestProbe();
    TestProbe<ExperimentEntity.Command> pr = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    scheduler.tell(new Scheduler.RequestHosts("night", HostSelector.any(), "nightly", nightly.ref()));
    var plan = nightly.expectMessageClass(ExperimentEntity.PlanBlock.class);
    plan.replyTo().tell(new ExperimentEntity.BlockPlanned(new Block("n-b1", "night", 0, "h1", 1, List.of())));
    session.expectMessageClass(AssignBlock.class);

    scheduler.tell(new Scheduler.RequestHosts("pr", HostSelector.any(), "pr", pr.ref()));

    StopBlock stop = session.expectMessageClass(StopBlock.class);
    assertThat(stop.epoch()).isEqualTo(1);
    assertThat(stop.afterCurrentBoot()).isTrue();
    pr.expectNoMessage(java.time.Duration.ofMillis(200));
    scheduler.tell(new Scheduler.BlockDone("h1", "n-b1", 1));
    var prPlan = pr.expectMessageClass(ExperimentEntity.PlanBlock.class);
    assertThat(prPlan.hostId()).isEqualTo("h1");
    assertThat(prPlan.epoch()).isEqualTo(2);
    session.expectNoMessage(java.time.Duration.ofMillis(200));
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
