package dev.abfleet.controller.bisect;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * The bisects in the journal, for listing: a read side over the bisect entities' events
 * (persistence query, as {@link dev.abfleet.controller.experiment.ExperimentCatalog} does for
 * experiments), so it outlives restarts, answers the same on every node and wakes no entity.
 * It replays every bisect's few events on each call and answers one list, not pages: bisects
 * are rare (each runs several experiments), so a journal holds few of them.
 */
public final class BisectCatalog {
  private static final String PREFIX = BisectEntity.TYPE_KEY.name() + "|";
  private static final int PARALLELISM = 4;

  /** One bisect as a listing shows it. */
  public record Summary(String id, String state, String metric, long startedAtMs, int probesDone,
      int maxProbes, int kernels) {}

  private final ActorSystem<?> system;
  private final JdbcReadJournal journal;

  public BisectCatalog(ActorSystem<?> system) {
    this.system = system;
    this.journal = PersistenceQuery.get(system)
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
  }

  /** Every started bisect, newest first. */
  public CompletionStage<List<Summary>> list() {
    return journal.currentPersistenceIds()
        .filter(pid -> pid.startsWith(PREFIX))
        .mapAsyncUnordered(PARALLELISM, this::state)
        .filter(s -> s.status() != BisectState.Status.NEW)
        .map(BisectCatalog::summary)
        .runWith(Sink.seq(), system)
        .thenApply(all -> all.stream()
            .sorted(Comparator.comparingLong(Summary::startedAtMs).reversed().thenComparing(Summary::id))
            .toList());
  }

  /**
   * Wakes every running bisect (asks it for its state) so that it follows its probe again after
   * the cluster restarted, with nobody watching it. Sharding's remembered entities
   * (application.conf) restart it as well once the coordinator restarts its shard; this does not
   * depend on that setting. Answers how many it woke.
   */
  public CompletionStage<Integer> wakeRunning(ClusterSharding sharding) {
    return list().thenApply(all -> {
      List<Summary> running = all.stream().filter(s -> s.state().equals(BisectState.Status.RUNNING.wire())).toList();
      running.forEach(s -> sharding.entityRefFor(BisectEntity.TYPE_KEY, s.id())
          .tell(new BisectEntity.Get(system.ignoreRef())));
      return running.size();
    });
  }

  private CompletionStage<BisectState> state(String persistenceId) {
    return journal.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .runFold(BisectState.empty(persistenceId.substring(PREFIX.length())), BisectCatalog::apply, system);
  }

  private static BisectState apply(BisectState state, EventEnvelope env) {
    return env.event() instanceof BisectEvent e ? state.apply(e) : state;
  }

  static Summary summary(BisectState s) {
    int kernels = s.request().kernels().size();
    return new Summary(s.id(), s.status().wire(), s.request().metric(), s.startedAtMs(),
        s.search().steps().size(), Bisection.maxProbes(kernels) + 1, kernels);
  }
}
