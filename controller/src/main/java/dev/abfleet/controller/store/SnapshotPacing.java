package dev.abfleet.controller.store;

import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * When an event-sourced entity saves a snapshot of its state.
 *
 * <p>A snapshot costs about the size of the state, so a fixed interval makes the cost per event
 * grow with the state: a scheduler holding 10,000 hosts wrote 375 KB every 100 events, and a
 * 200-pair experiment rewrote all its samples every 100 events (700 MB of snapshots against
 * 122 MB of journal in one {@code bench fleet} run). Here an entity waits for at least
 * {@code every} events and at least as many events as its state has entries ({@code weight}),
 * so each event pays a bounded share of a snapshot, and a restart replays no more events than
 * the snapshot it starts from holds entries. Whatever the weight, a snapshot is saved every
 * {@code every x MAX_FACTOR} events: Pekko's count-based retention takes those and deletes the
 * snapshots older than the two before (the paced ones in between included).
 *
 * <p>Not thread-safe: one instance per entity, used from its actor.
 */
public final class SnapshotPacing {
  /** The longest interval, in multiples of {@code every}. */
  public static final int MAX_FACTOR = 100;

  private final int every;
  // The sequence number of the last snapshot this entity saved since it started (0: none yet,
  // so the first event after a recovery may snapshot the replayed tail at once).
  private long lastSnapshot;

  /** @param every the shortest interval in events; 0 = never snapshot (replay every event) */
  public SnapshotPacing(int every) {
    if (every < 0) {
      throw new IllegalArgumentException("snapshot every " + every + " events: use 0 (off) or more");
    }
    this.every = every;
  }

  /** The count-based snapshots (the longest interval) and the deletion of older snapshots. */
  public RetentionCriteria retention() {
    return every > 0
        ? RetentionCriteria.snapshotEvery(maxInterval(), 2)
        : RetentionCriteria.disabled();
  }

  /**
   * Whether to save a snapshot after the event with this sequence number, for a state of
   * {@code weight} entries (hosts, leases, recorded boots: what a snapshot writes out).
   */
  public boolean due(long seqNr, long weight) {
    if (every == 0) {
      return false;
    }
    if (seqNr % maxInterval() == 0) {
      lastSnapshot = seqNr; // the retention's own snapshot
      return false;
    }
    if (seqNr - lastSnapshot >= Math.max(every, weight)) {
      lastSnapshot = seqNr;
      return true;
    }
    return false;
  }

  private int maxInterval() {
    return every * MAX_FACTOR;
  }
}
