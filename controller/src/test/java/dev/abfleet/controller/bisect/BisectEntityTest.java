package dev.abfleet.controller.bisect;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.stats.verdict.Assessment;
import dev.abfleet.stats.verdict.Row;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bisect entity under the event-sourced test kit (events and state CBOR-serialized, as in
 * production), with fake experiment entities that finish as a fleet with a regression from
 * {@link #firstBad} on would: regressed for a probed kernel at or after it (the last kernel, the
 * endpoints' experiment, included), no change before.
 */
class BisectEntityTest {
  static ActorTestKit kit;

  /** How the fake experiments end. */
  enum Ending { VERDICT, FAILED, NEVER }

  final Map<String, Integer> submissions = new ConcurrentHashMap<>();
  final Map<String, ExperimentSpec> specs = new ConcurrentHashMap<>();
  final Map<String, String> cancelled = new ConcurrentHashMap<>();
  final Map<String, RecipientRef<ExperimentEntity.Command>> fakes = new ConcurrentHashMap<>();
  volatile int firstBad = 5;
  /** A probe whose experiment ends inconclusive, -5% [-15%, +5%]; -1 = none. */
  volatile int inconclusive = -1;
  volatile Ending ending = Ending.VERDICT;
  EventSourcedBehaviorTestKit<BisectEntity.Command, BisectEvent, BisectState> entity;

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
    entity = EventSourcedBehaviorTestKit.create(kit.system(), BisectEntity.create("b1",
        id -> fakes.computeIfAbsent(id, i -> kit.spawn(fakeExperiment(i))), Duration.ofMillis(20),
        Duration.ofSeconds(3), Clock.systemUTC()));
  }

  static BisectRequest request(int kernels) {
    List<ArtifactRef> refs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < kernels; i++) {
      refs.add(new ArtifactRef("%064x".formatted(i + 1), "abfleet:sha256:%064x".formatted(i + 1), 100));
      labels.add("/k/" + i);
    }
    ArmSpec shape = new ArmSpec("shape", ArmSpec.Role.BASELINE, new ArtifactRef("", "", 0), null, "", 1, 256);
    ExperimentSpec template = new ExperimentSpec("", List.of(shape),
        new BenchmarkSpec("", List.of("seq_read"), 0, 0, 0),
        new HostSelector("sim", "", Map.of(), List.of()), PolicySpec.defaults(), "adhoc");
    return new BisectRequest(refs, labels, "seq_read", 0.02, 0.05, List.of(10, 15, 20), template);
  }

  @Test
  void findsTheFirstBadKernelWithOneExperimentPerProbe() {
    StatusReply<BisectEntity.Started> started = start(request(16));
    assertThat(started.isSuccess()).isTrue();

    BisectState done = await(BisectState::terminal);

    assertThat(done.status()).isEqualTo(BisectState.Status.FOUND);
    assertThat(done.search().firstBad()).isEqualTo(5);
    assertThat(done.search().steps()).extracting(s -> s.result().experiment())
        .containsExactly("b1-0-vs-15", "b1-0-vs-7", "b1-0-vs-3", "b1-0-vs-5", "b1-0-vs-4");
    assertThat(submissions).containsOnlyKeys("b1-0-vs-15", "b1-0-vs-7", "b1-0-vs-3", "b1-0-vs-5", "b1-0-vs-4")
        .allSatisfy((id, n) -> assertThat(n).isOne());
    // The endpoints' experiment runs under the bisect's threshold to its last look only (R is measured on the
    // full budget); each probe under f*|R| (0.5 x 30%) with the bisect's sequential looks.
    ExperimentSpec endpoints = specs.get("b1-0-vs-15");
    assertThat(endpoints.policy().noiseThreshold()).isEqualTo(0.02);
    assertThat(endpoints.policy().looks()).containsExactly(20);
    assertThat(endpoints.policy().pairs()).isEqualTo(20);
    ExperimentSpec probe = specs.get("b1-0-vs-5");
    assertThat(probe.armOrder()).containsExactly("good-0", "probe-5");
    assertThat(probe.baseline().kernel().sha256()).isEqualTo("%064x".formatted(1));
    assertThat(probe.policy().noiseThreshold()).isCloseTo(0.15, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(probe.policy().looks()).containsExactly(10, 15, 20);
    assertThat(probe.policy().gatingMetrics()).containsExactly("seq_read");
    assertThat(done.search().endpointChange()).isEqualTo(-0.3);
    assertThat(done.search().steps().get(0).result().note()).isEqualTo("regressed at look 1 of 1 (20 pairs)");
    assertThat(done.search().steps().get(1).result().pairs()).isEqualTo(10);
    assertThat(done.search().steps().get(2).result().rule())
        .isEqualTo("good: worse end -1.0% rules out 0.5 x endpoints' -30.0% = -15.0%");
  }

  @Test
  void aRestartWithAProbeInFlightFollowsTheSameExperimentAndFinishes() {
    ending = Ending.NEVER;
    start(request(16));
    await(s -> s.inFlight() != null && submissions.containsKey("b1-0-vs-15"));

    entity.restart();
    ending = Ending.VERDICT;
    BisectState done = await(BisectState::terminal);

    assertThat(done.status()).isEqualTo(BisectState.Status.FOUND);
    assertThat(done.search().firstBad()).isEqualTo(5);
    // The probe in flight was submitted again under its id with the same spec (which the real
    // experiment answers as a repeat); no other experiment was made for it.
    assertThat(submissions.keySet())
        .containsExactlyInAnyOrder("b1-0-vs-15", "b1-0-vs-7", "b1-0-vs-3", "b1-0-vs-5", "b1-0-vs-4");
    assertThat(submissions.get("b1-0-vs-15")).isGreaterThanOrEqualTo(2);
    assertThat(submissions.get("b1-0-vs-7")).isOne();
  }

  @Test
  void anInconclusiveProbeEndsAmbiguousWithTheRangeOpen() {
    inconclusive = 7;
    BisectState done = startAndAwait(request(16));
    assertThat(done.status()).isEqualTo(BisectState.Status.AMBIGUOUS);
    assertThat(done.search().ambiguous()).isEqualTo(7);
    assertThat(done.search().steps()).hasSize(2);
  }

  @Test
  void endpointsWithoutARegressionFailTheBisectBeforeAnyProbe() {
    firstBad = -1;
    BisectState done = startAndAwait(request(16));
    assertThat(done.status()).isEqualTo(BisectState.Status.FAILED);
    assertThat(done.message()).startsWith("the endpoints show no regression of seq_read to bisect (endpoints: no"
        + " regression shown (-5.0% [-15.0%, +5.0%] does not rule out no change), 20 pairs)");
    assertThat(submissions).containsOnlyKeys("b1-0-vs-15");
  }

  @Test
  void aFailedProbeExperimentFailsTheBisectNamingIt() {
    ending = Ending.FAILED;
    BisectState done = startAndAwait(request(16));
    assertThat(done.status()).isEqualTo(BisectState.Status.FAILED);
    assertThat(done.message()).startsWith("probe #15 vs #0: experiment b1-0-vs-15 failed: no host booted it");
  }

  @Test
  void cancelStopsTheProbeInFlight() {
    ending = Ending.NEVER;
    start(request(16));
    await(s -> s.inFlight() != null && submissions.containsKey("b1-0-vs-15"));

    BisectState after = entity.<BisectState>runCommand(r -> new BisectEntity.Cancel("wrong range", r)).reply();

    assertThat(after.status()).isEqualTo(BisectState.Status.CANCELLED);
    assertThat(after.message()).isEqualTo("wrong range");
    awaitTrue(() -> cancelled.containsKey("b1-0-vs-15"));
    assertThat(cancelled.get("b1-0-vs-15")).contains("bisect b1 cancelled: wrong range");
  }

  @Test
  void aRepeatedStartIsAcceptedAndADifferentOneRefused() {
    ending = Ending.NEVER;
    start(request(16));
    assertThat(start(request(16)).isSuccess()).isTrue();
    StatusReply<BisectEntity.Started> other = start(request(8));
    assertThat(other.isError()).isTrue();
    assertThat(other.getError().getMessage()).contains("bisect 'b1' already exists", "under a new id");
  }

  @Test
  void aBadRequestIsRefusedNamingEachField() {
    BisectRequest r = request(1);
    BisectRequest bad = new BisectRequest(r.kernels(), List.of(), "", 0, 1.5, List.of(10, 5), r.template(), 1.5);
    StatusReply<BisectEntity.Started> reply = start(bad);
    assertThat(reply.isError()).isTrue();
    assertThat(reply.getError().getMessage()).contains("kernels: 1 given", "metric: missing",
        "noise_threshold: 0.0", "alpha: 1.5", "looks: [10, 5]", "fraction: 1.5 is not in (0, 1)");
    assertThat(entity.<BisectState>runCommand(BisectEntity.Get::new).reply().status())
        .isEqualTo(BisectState.Status.NEW);
  }

  private StatusReply<BisectEntity.Started> start(BisectRequest request) {
    return entity.<StatusReply<BisectEntity.Started>>runCommand(
        replyTo -> new BisectEntity.Start(request, replyTo)).reply();
  }

  private BisectState startAndAwait(BisectRequest request) {
    assertThat(start(request).isSuccess()).isTrue();
    return await(BisectState::terminal);
  }

  private BisectState await(Predicate<BisectState> condition) {
    return Eventually.until("bisect state", Duration.ofSeconds(10),
        () -> entity.<BisectState>runCommand(BisectEntity.Get::new).reply(), condition);
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) {
    Eventually.await("condition", Duration.ofSeconds(10), condition);
  }

  /** An experiment that ends as {@link #ending} says once submitted. */
  private Behavior<ExperimentEntity.Command> fakeExperiment(String id) {
    return Behaviors.receive(ExperimentEntity.Command.class)
        .onMessage(ExperimentEntity.Submit.class, s -> {
          submissions.merge(id, 1, Integer::sum);
          specs.put(id, s.spec());
          s.replyTo().tell(StatusReply.success(new ExperimentEntity.Accepted(id, 1)));
          return Behaviors.same();
        })
        .onMessage(ExperimentEntity.Get.class, g -> {
          g.replyTo().tell(view(id));
          return Behaviors.same();
        })
        .onMessage(ExperimentEntity.Cancel.class, c -> {
          cancelled.put(id, c.reason());
          return Behaviors.same();
        })
        .build();
  }

  private ExperimentView view(String id) {
    ExperimentSpec spec = specs.get(id);
    if (spec == null) {
      return new ExperimentView(id, null, ExperimentView.UNKNOWN, 0, 0, 0, Assessment.EMPTY, List.of(), "", 0, 0, 0);
    }
    int probe = Integer.parseInt(id.substring(id.lastIndexOf('-') + 1));
    return switch (ending) {
      case NEVER -> new ExperimentView(id, spec, "running", 3, 20, 1, Assessment.EMPTY, List.of(), "", 0, 0, 0);
      case FAILED -> new ExperimentView(id, spec, "failed", 0, 20, 1, Assessment.EMPTY, List.of(),
          "no host booted it", 0, 0, 0);
      case VERDICT -> {
        boolean bad = firstBad >= 0 && probe >= firstBad;
        boolean undecided = firstBad < 0 || probe == inconclusive;
        Verdict v = undecided ? Verdict.INCONCLUSIVE : bad ? Verdict.REGRESSED : Verdict.NO_CHANGE;
        double change = undecided ? -0.05 : bad ? -0.3 : 0.0;
        double width = undecided ? 0.1 : 0.01;
        Comparison c = new Comparison("seq_read", "MB/s", Direction.HIGHER, true, 10, 100, 100 * (1 + change),
            change, change - width, change + width, 0.01, 0.01, v, List.of(), List.of());
        Assessment a = new Assessment(true, 10, List.of(new Row("probe-" + probe, c, 0)), Map.of(), Map.of(), v.wire());
        // Stopped at its first look, as a decided experiment is: the endpoints' has only one.
        int pairs = spec.policy().looks().get(0);
        yield new ExperimentView(id, spec, "completed", pairs, 20, 1, a, List.of(), "", 0, 0, 0);
      }
    };
  }
}
