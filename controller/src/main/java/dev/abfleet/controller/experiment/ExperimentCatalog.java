package dev.abfleet.controller.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The experiments in the journal, for listing: a read side over the experiment entities' events
 * (persistence query), so it outlives restarts, answers the same on every node and wakes no
 * entity. Cost: one short query per experiment for its submission time, and a replay of the
 * events of each experiment the page looks at. A journal with very many experiments wants a
 * projection table instead.
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
    static final Comparator<Cursor> NEWEST_FIRST =
        Comparator.comparingLong(Cursor::createdAtMs).reversed().thenComparing(Cursor::id);

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

  public ExperimentCatalog(ActorSystem<?> system) {
    this.system = system;
    this.journal = PersistenceQuery.get(system)
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
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
    return journal.currentPersistenceIds()
        .filter(pid -> pid.startsWith(PREFIX))
        .mapAsyncUnordered(PARALLELISM, this::submitted)
        .filter(Optional::isPresent)
        .map(Optional::get)
        .runWith(Sink.seq(), system)
        .thenCompose(all -> {
          List<Cursor> candidates = after(all, after);
          return Source.from(candidates)
              .mapAsync(PARALLELISM, this::summary)
              .filter(s -> states.isEmpty() || states.contains(s.state()))
              .take(pageSize + 1L)
              .runWith(Sink.seq(), system);
        })
        .thenApply(found -> page(found, pageSize));
  }

  /** The cursors after {@code after}, newest first. */
  static List<Cursor> after(List<Cursor> all, Optional<Cursor> after) {
    List<Cursor> sorted = new ArrayList<>(all);
    sorted.sort(Cursor.NEWEST_FIRST);
    if (after.isEmpty()) {
      return sorted;
    }
    return sorted.stream().filter(c -> Cursor.NEWEST_FIRST.compare(c, after.get()) > 0).toList();
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
