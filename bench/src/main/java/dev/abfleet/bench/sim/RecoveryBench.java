package dev.abfleet.bench.sim;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.PekkoConfig;
import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.experiment.Decisions;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentEvent;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.ExperimentState;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.experiment.Sample;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.store.EventStore;
import dev.abfleet.controller.store.StoreSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * How long one experiment entity takes to recover from the event store: the time from
 * spawning it to its first message after recovery (it asks the scheduler for hosts), for a
 * journal of a given number of events, with and without snapshots.
 *
 * <p>The journal is written as the live entity would write it: the events come from the
 * entity's own decisions ({@link Decisions}) for back-to-back pairs on one host, and snapshots
 * are saved by the same retention rule (every N events, of the state those events build).
 */
public final class RecoveryBench {
  private static final Duration TIMEOUT = Duration.ofMinutes(10);
  private static final List<String> METRICS = List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read");

  /** Recovery times of one journal, in ms, in the order measured. */
  public record Figures(int snapshotEvery, int events, int pairs, double[] millis) {
    public double median() {
      double[] m = millis.clone();
      Arrays.sort(m);
      return m.length % 2 == 1 ? m[m.length / 2] : (m[m.length / 2 - 1] + m[m.length / 2]) / 2;
    }

    public double min() {
      return Arrays.stream(millis).min().orElse(Double.NaN);
    }

    public double max() {
      return Arrays.stream(millis).max().orElse(Double.NaN);
    }
  }

  private RecoveryBench() {}

  /**
   * Writes one journal of {@code events} events per snapshot interval and recovers each
   * {@code repeat} times (after {@code warmup} unmeasured recoveries, round robin).
   */
  public static List<Figures> run(ControllerSettings settings, int events, List<Integer> intervals,
      int warmup, int repeat, String runTag) throws Exception {
    OptionalInt found = EventStore.schemaVersion(settings);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME, PekkoConfig.of(settings));
    try {
      if (StoreSchema.plan(found, EventStore.name(settings)) == StoreSchema.Plan.CREATE) {
        EventStore.createSchema(system, settings, found);
      }
      List<ExperimentEvent> journal = journal("bench-" + runTag, events);
      int pairs = (int) journal.stream().filter(e -> e instanceof ExperimentEvent.PairCompleted).count();
      List<String> ids = new ArrayList<>();
      for (int every : intervals) {
        String id = "bench-" + runTag + "-s" + every;
        write(system, id, renamed(journal, id), every);
        ids.add(id);
      }
      double[][] millis = new double[intervals.size()][repeat];
      for (int round = 0; round < warmup + repeat; round++) {
        for (int i = 0; i < intervals.size(); i++) {
          double ms = recover(system, ids.get(i), intervals.get(i), round);
          if (round >= warmup) {
            millis[i][round - warmup] = ms;
          }
        }
      }
      List<Figures> figures = new ArrayList<>();
      for (int i = 0; i < intervals.size(); i++) {
        figures.add(new Figures(intervals.get(i), journal.size(), pairs, millis[i]));
      }
      return figures;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Exactly {@code events} events of a running experiment: the submission, then complete
   * blocks (block started, two boots recorded, pair completed), padded with stale reports.
   */
  public static List<ExperimentEvent> journal(String id, int events) {
    int pairsPossible = Math.max(1, (events - 1) / 4);
    ExperimentSpec spec = spec(pairsPossible + 10);
    List<ExperimentEvent> journal = new ArrayList<>();
    ExperimentState state = ExperimentState.empty(id);
    state = append(journal, state, new ExperimentEvent.ExperimentSubmitted(id, spec, 42));
    for (int pair = 0; journal.size() + 4 <= events; pair++) {
      long epoch = pair + 1;
      Block block = Decisions.planBlock(state, "h1", epoch, pair);
      state = append(journal, state, Decisions.started(block, 0));
      for (RunPlan run : block.runs()) {
        double value = run.arm().equals("cand") ? 980 : 1000;
        RunOutcome outcome = outcome(run.runId(), epoch, value + pair % 7);
        for (ExperimentEvent e : Decisions.recordRun(state, outcome, block.blockId()).events()) {
          state = append(journal, state, e);
        }
      }
    }
    for (int i = 0; journal.size() < events; i++) {
      state = append(journal, state, new ExperimentEvent.RunRejected("stale-" + i, "gone", 0));
    }
    return journal;
  }

  private static ExperimentState append(List<ExperimentEvent> journal, ExperimentState state, ExperimentEvent e) {
    journal.add(e);
    return state.apply(e);
  }

  /** The same journal under another experiment id (block and run ids keep the first one's). */
  static List<ExperimentEvent> renamed(List<ExperimentEvent> journal, String id) {
    List<ExperimentEvent> out = new ArrayList<>(journal);
    var submitted = (ExperimentEvent.ExperimentSubmitted) out.get(0);
    out.set(0, new ExperimentEvent.ExperimentSubmitted(id, submitted.spec(), submitted.seed()));
    return out;
  }

  private static ExperimentSpec spec(int pairs) {
    return new ExperimentSpec("recovery-bench",
        List.of(
            new ArmSpec("base", ArmSpec.Role.BASELINE, new ArtifactRef("a".repeat(64), "/k/base", 0), null, "", 1, 512),
            new ArmSpec("cand", ArmSpec.Role.CANDIDATE, new ArtifactRef("b".repeat(64), "/k/cand", 0), null, "", 1, 512)),
        new BenchmarkSpec("", METRICS, 5, 200, 1),
        HostSelector.any(),
        new PolicySpec(0.02, 0.05, pairs, 42, 180, METRICS),
        "nightly");
  }

  /** A boot with the default benchmark's shape: four metrics, five measured iterations each. */
  private static RunOutcome outcome(String runId, long epoch, double value) {
    List<Sample> samples = new ArrayList<>();
    for (String metric : METRICS) {
      for (int i = 0; i < 5; i++) {
        samples.add(new Sample(metric, value * (1 + 0.001 * i), "ops/s", "higher", i, false));
      }
    }
    return new RunOutcome(runId, "", "h1", 0, 0, epoch, RunOutcome.Status.OK, "kvm", "qemu", 900,
        5000, 20, "6.1.0", samples, "", "");
  }

  /** @param last the writer stops once these are persisted */
  private record Append(List<ExperimentEvent> events, boolean last, ActorRef<Done> replyTo) {}

  /** Persists events under an experiment's persistence id with the entity's snapshot rule. */
  private static final class Writer extends EventSourcedBehavior<Append, ExperimentEvent, ExperimentState> {
    private final String id;
    private final int snapshotEvery;

    Writer(String id, int snapshotEvery) {
      super(PersistenceId.of(ExperimentEntity.TYPE_KEY.name(), id));
      this.id = id;
      this.snapshotEvery = snapshotEvery;
    }

    @Override
    public ExperimentState emptyState() {
      return ExperimentState.empty(id);
    }

    @Override
    public CommandHandler<Append, ExperimentEvent, ExperimentState> commandHandler() {
      return newCommandHandlerBuilder().forAnyState()
          .onCommand(Append.class, (s, cmd) -> {
            var persisted = Effect().persist(cmd.events()).thenRun(x -> cmd.replyTo().tell(Done.getInstance()));
            return cmd.last() ? persisted.thenStop() : persisted;
          })
          .build();
    }

    @Override
    public EventHandler<ExperimentState, ExperimentEvent> eventHandler() {
      return newEventHandlerBuilder().forAnyState().onAnyEvent(ExperimentState::apply);
    }

    @Override
    public RetentionCriteria retentionCriteria() {
      return snapshotEvery > 0 ? RetentionCriteria.snapshotEvery(snapshotEvery, 2) : RetentionCriteria.disabled();
    }
  }

  /** Writes in batches that end on snapshot boundaries, as single events would. */
  static void write(ActorSystem<Void> system, String id, List<ExperimentEvent> journal, int snapshotEvery)
      throws Exception {
    ActorRef<Append> writer = system.systemActorOf(new Writer(id, snapshotEvery), "writer-" + id, Props.empty());
    int batch = snapshotEvery > 0 ? gcd(snapshotEvery, 100) : 100;
    for (int from = 0; from < journal.size(); from += batch) {
      List<ExperimentEvent> part = journal.subList(from, Math.min(journal.size(), from + batch));
      boolean last = from + batch >= journal.size();
      AskPattern.<Append, Done>ask(writer, r -> new Append(List.copyOf(part), last, r), TIMEOUT, system.scheduler())
          .toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** Spawns the entity and returns the ms until it asks for hosts, i.e. recovery is done. */
  private static double recover(ActorSystem<Void> system, String id, int snapshotEvery, int round) throws Exception {
    CompletableFuture<Long> done = new CompletableFuture<>();
    system.systemActorOf(recovering(id, snapshotEvery, done), "recover-" + id + "-" + round, Props.empty());
    return done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS) / 1e6;
  }

  private static Behavior<Object> recovering(String id, int snapshotEvery, CompletableFuture<Long> done) {
    return Behaviors.setup(ctx -> {
      ActorRef<Scheduler.Command> scheduler = ctx.messageAdapter(Scheduler.Command.class, c -> c);
      long start = System.nanoTime();
      ctx.spawn(ExperimentEntity.create(id, scheduler, snapshotEvery), "entity");
      return Behaviors.receive(Object.class)
          .onMessage(Scheduler.RequestHosts.class, m -> {
            done.complete(System.nanoTime() - start);
            return Behaviors.stopped();
          })
          .onAnyMessage(m -> Behaviors.same())
          .build();
    });
  }
}
