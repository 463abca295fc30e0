package dev.abfleet.controller.experiment;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * The experiments, for listing: pages of the catalogue table ({@link CatalogTable}), which the
 * entities keep current, so a page costs one indexed query however many experiments the journal
 * holds, answers the same on every node and wakes no entity. {@link #backfill} fills the rows
 * missing from the journal's read side (persistence query).
 */
public final class ExperimentCatalog {
  /** States a listing may ask for. */
  public static final Set<String> STATES = Set.of("running", "completed", "cancelled", "failed");
  private static final String PREFIX = ExperimentEntity.TYPE_KEY.name() + "|";
  private static final int PARALLELISM = 4;

  /** One experiment as a listing shows it. */
  public record Summary(String id, String name, String state, int pairsDone, int pairsWanted,
      long createdAtMs, String priority, String message) {}

  /** One page, newest first; {@code nextToken} empty = the last page. */
  public record Page(List<Summary> experiments, String nextToken) {}

  /** Where a page starts: after the experiment submitted at {@code createdAtMs} with {@code id}. */
  record Cursor(long createdAtMs, String id) {
    String token() {
      return createdAtMs + ":" + id;
    }

    /** The cursor of a page token; empty token = none. */
    static Optional<Cursor> parse(String token) {
      if (token.isEmpty()) {
        return Optional.empty();
      }
      int colon = token.indexOf(':');
      try {
        return Optional.of(new Cursor(Long.parseLong(token.substring(0, Math.max(colon, 0))),
            token.substring(colon + 1)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("page_token '" + token + "': not a token this"
            + " controller gave; pass next_page_token from the previous answer, or none");
      }
    }
  }

  private final ActorSystem<?> system;
  private final JdbcReadJournal journal;
  private final CatalogTable table;

  public ExperimentCatalog(ActorSystem<?> system) {
    this.system = system;
    this.journal = PersistenceQuery.get(system)
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    this.table = CatalogTable.get(system);
  }

  /**
   * Up to {@code pageSize} experiments in {@code states} (empty = all), newest first, after
   * {@code pageToken}; fails with IllegalArgumentException for a bad state or token.
   */
  public CompletionStage<Page> list(Set<String> states, int pageSize, String pageToken) {
    for (String s : states) {
      if (!STATES.contains(s)) {
        throw new IllegalArgumentException("state '" + s + "': expected one of running,"
            + " completed, cancelled, failed");
      }
    }
    Optional<Cursor> after = Cursor.parse(pageToken);
    return table.page(states, after, pageSize + 1).thenApply(found -> page(found, pageSize));
  }

  /**
   * Writes the catalogue rows of the experiments in the journal that have none, from their
   * events (the submission time from the first one's timestamp); returns how many it wrote.
   * Run once when a node starts: a store from before the catalogue gets its rows, and so does an
   * experiment whose row a crash lost.
   */
  public CompletionStage<Integer> backfill() {
    return table.ids().thenCompose(known -> journal.currentPersistenceIds()
        .filter(pid -> pid.startsWith(PREFIX) && !known.contains(pid.substring(PREFIX.length())))
        .mapAsync(PARALLELISM, this::submitted)
        .filter(Optional::isPresent)
        .map(Optional::get)
        .mapAsync(PARALLELISM, this::summary)
        .map(s -> {
          table.record(s);
          return s;
        })
        .runWith(Sink.fold(0, (n, s) -> n + 1), system));
  }

  static Page page(List<Summary> found, int pageSize) {
    if (found.size() <= pageSize) {
      return new Page(List.copyOf(found), "");
    }
    Summary last = found.get(pageSize - 1);
    return new Page(List.copyOf(found.subList(0, pageSize)),
        new Cursor(last.createdAtMs(), last.id()).token());
  }

  /** The experiment's submission time from its first event; empty when it has none. */
  private CompletionStage<Optional<Cursor>> submitted(String persistenceId) {
    String id = persistenceId.substring(PREFIX.length());
    return journal.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .take(1)
        .map(env -> new Cursor(env.timestamp(), id))
        .runWith(Sink.headOption(), system);
  }

  private CompletionStage<Summary> summary(Cursor c) {
    return journal.currentEventsByPersistenceId(PREFIX + c.id(), 0, Long.MAX_VALUE)
        .runFold(ExperimentState.empty(c.id()), ExperimentCatalog::apply, system)
        .thenApply(s -> summary(s, c.createdAtMs()));
  }

  private static ExperimentState apply(ExperimentState state, EventEnvelope env) {
    return env.event() instanceof ExperimentEvent e ? state.apply(e) : state;
  }

  static Summary summary(ExperimentState s, long createdAtMs) {
    return new Summary(s.id(), s.spec() == null ? "" : s.spec().name(), s.status().wire(),
        s.pairs().size(), s.status() == ExperimentState.Status.NEW ? 0 : s.pairsWanted(),
        createdAtMs, s.spec() == null ? "" : s.spec().priority(), s.message());
  }
}
