package dev.abfleet.controller.noise;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * The noise records of every host class (a cluster singleton, event-sourced): what
 * {@code abfleet calibrate --real} and nightly A/A schedules measured, merged in one place so that
 * two writers at once lose none of each other's runs, and every client quotes the same record.
 */
public final class NoiseLedger
    extends EventSourcedBehaviorWithEnforcedReplies<NoiseLedger.Command, NoiseEvent, NoiseLedgerState> {

  public sealed interface Command extends CborSerializable permits MergeNoise, ListNoise {}

  /**
   * Merges the measured noise into its class's record ({@link NoiseRecord#merge}); replies the
   * merged record, or an error naming what is wrong with the measurement.
   */
  public record MergeNoise(NoiseRecord measured, ActorRef<StatusReply<Merged>> replyTo) implements Command {}

  /** @param record the class's record after the merge */
  public record Merged(NoiseRecord record) implements CborSerializable {}

  /** Replies {@link Records}. */
  public record ListNoise(ActorRef<Records> replyTo) implements Command {}

  /** @param records every class's record, sorted by host class */
  public record Records(List<NoiseRecord> records) implements CborSerializable {
    public Records {
      records = List.copyOf(records);
    }
  }

  /** Persistence id of the one NoiseLedger actor. */
  public static final String PERSISTENCE_ID = "noise";

  /** @param snapshotEvery save a snapshot every this many events; 0 = never */
  public static Behavior<Command> create(int snapshotEvery) {
    return new NoiseLedger(snapshotEvery);
  }

  private final int snapshotEvery;

  private NoiseLedger(int snapshotEvery) {
    super(PersistenceId.ofUniqueId(PERSISTENCE_ID));
    this.snapshotEvery = snapshotEvery;
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshotEvery > 0 ? RetentionCriteria.snapshotEvery(snapshotEvery, 2) : RetentionCriteria.disabled();
  }

  @Override
  public NoiseLedgerState emptyState() {
    return NoiseLedgerState.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, NoiseEvent, NoiseLedgerState> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(MergeNoise.class, this::onMerge)
        .onCommand(ListNoise.class, (state, cmd) -> Effect().reply(cmd.replyTo(), new Records(state.sorted())))
        .build();
  }

  @Override
  public EventHandler<NoiseLedgerState, NoiseEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(NoiseLedgerState::apply);
  }

  private ReplyEffect<NoiseEvent, NoiseLedgerState> onMerge(NoiseLedgerState state, MergeNoise cmd) {
    Optional<String> bad = invalid(cmd.measured());
    if (bad.isPresent()) {
      return Effect().reply(cmd.replyTo(), StatusReply.error(bad.get()));
    }
    return Effect().persist(new NoiseEvent.NoiseMerged(cmd.measured()))
        .thenReply(cmd.replyTo(), st -> StatusReply.success(new Merged(st.record(cmd.measured().hostClass()))));
  }

  /**
   * What makes {@code r} unfit to merge (a record that would poison every later quote of its
   * class), empty when it is fine.
   */
  public static Optional<String> invalid(NoiseRecord r) {
    if (r.hostClass() == null || r.hostClass().isBlank()) {
      return Optional.of("noise record without a host class; expected a label such as qemu/tcg");
    }
    String where = "noise record of " + r.hostClass() + ": ";
    if (r.date() == null) {
      return Optional.of(where + "no date; expected the day of its latest A/A experiment");
    }
    if (r.experiments() < 0 || r.falsePositives() < 0 || r.falsePositives() > r.experiments()) {
      return Optional.of(where + r.falsePositives() + " false positives of " + r.experiments()
          + " experiments; expected 0 <= false positives <= experiments");
    }
    for (MetricNoise m : r.metrics()) {
      if (m.metric() == null || m.metric().isBlank()) {
        return Optional.of(where + "a metric without a name");
      }
      for (Moments mo : List.of(m.boots(), m.diffs())) {
        if (mo == null || mo.n() < 0 || !(mo.m2() >= 0) || !Double.isFinite(mo.mean()) || Double.isInfinite(mo.m2())) {
          return Optional.of(where + "metric " + m.metric() + " has moments " + mo
              + "; expected n >= 0, a finite mean and a finite m2 >= 0");
        }
      }
      if (m.recent().stream().anyMatch(d -> d == null || !Double.isFinite(d))) {
        return Optional.of(where + "metric " + m.metric() + " has a non-finite recent log ratio");
      }
    }
    return Optional.empty();
  }
}
