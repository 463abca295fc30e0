package dev.abfleet.controller.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The scheduler's write buffer: lease and host-mark changes wait here for the next flush, so
 * that a burst of finished blocks (hundreds of hosts at once) costs one journal write and one
 * grant round instead of one each. Handlers must read {@link #current}, the persisted state with
 * the waiting changes applied, so that a lease released a moment ago is not released or granted
 * twice. Used by the scheduler actor only (not thread-safe).
 */
final class GroupCommit {
  /** What a flush writes, and what to run once it is written. */
  record Batch(List<Scheduler.Event> events, List<Consumer<SchedulerState>> thens) {
    void runAfter(SchedulerState written) {
      thens.forEach(t -> t.accept(written));
    }
  }

  private final List<Scheduler.Event> pending = new ArrayList<>();
  private final List<Consumer<SchedulerState>> afterFlush = new ArrayList<>();
  private boolean flushQueued;
  // The persisted state `aheadBase` with the first `aheadCount` pending events applied.
  private SchedulerState ahead;
  private SchedulerState aheadBase;
  private int aheadCount;

  /** The persisted {@code state} plus the changes waiting for the flush. */
  SchedulerState current(SchedulerState state) {
    if (pending.isEmpty()) {
      return state;
    }
    if (aheadBase != state || aheadCount != pending.size()) {
      ahead = state.applyAll(pending);
      aheadBase = state;
      aheadCount = pending.size();
    }
    return ahead;
  }

  /**
   * Queues {@code events} and {@code then}; true when the caller must send the flush message
   * (none is on its way yet).
   *
   * @param seen the state the handler was given by {@link #current}
   */
  boolean queue(SchedulerState seen, List<Scheduler.Event> events, Consumer<SchedulerState> then) {
    if (!events.isEmpty() && !pending.isEmpty() && seen == ahead && aheadCount == pending.size()) {
      ahead = ahead.applyAll(events);
      aheadCount += events.size();
    }
    pending.addAll(events);
    afterFlush.add(then);
    if (flushQueued) {
      return false;
    }
    flushQueued = true;
    return true;
  }

  /** Everything queued so far; the buffer starts empty again. */
  Batch take() {
    Batch batch = new Batch(List.copyOf(pending), List.copyOf(afterFlush));
    pending.clear();
    afterFlush.clear();
    flushQueued = false;
    return batch;
  }
}
