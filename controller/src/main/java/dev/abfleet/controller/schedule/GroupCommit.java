package dev.abfleet.controller.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The scheduler's write buffer: lease and host-mark changes wait here for the next flush, so
 * that a burst of finished blocks (hundreds of hosts at once) costs one journal write and one
 * grant round instead of one each. Handlers must read {@link #current}, the persisted state with
 * the waiting changes applied, so that a lease released a moment ago is not released or granted
 * twice.
 *
 * <p>Each event is applied once: when it is queued, onto the state before it. The event handler
 * takes the state computed then ({@link #written}) instead of applying the event again; only
 * events it has not seen (recovery) are applied there. Every write of the scheduler goes through
 * here, so the persisted state changes only at a flush and the chain always starts from it. Used
 * by the scheduler actor only (not thread-safe).
 */
final class GroupCommit {
  /** What a flush writes, the state once it is written, and what to run then. */
  record Batch(List<Scheduler.Event> events, SchedulerState after, List<Consumer<SchedulerState>> thens) {
    void runAfter(SchedulerState written) {
      thens.forEach(t -> t.accept(written));
    }
  }

  /** An event and the states just before and after it. */
  private record Applied(Scheduler.Event event, SchedulerState before, SchedulerState after) {}

  private final List<Applied> pending = new ArrayList<>();
  private final List<Consumer<SchedulerState>> afterFlush = new ArrayList<>();
  // Taken by the last flush and not yet seen by the event handler, oldest first.
  private final Deque<Applied> writing = new ArrayDeque<>();
  private boolean flushQueued;

  /** The persisted {@code state} plus the changes waiting for the flush. */
  SchedulerState current(SchedulerState persisted) {
    if (pending.isEmpty()) {
      return persisted;
    }
    if (pending.get(0).before() != persisted) {
      throw new IllegalStateException("the scheduler's state changed outside its group commit");
    }
    return pending.get(pending.size() - 1).after();
  }

  /**
   * Applies and queues {@code events} and queues {@code then}; true when the caller must send
   * the flush message (none is on its way yet).
   *
   * @param persisted the scheduler's persisted state (as given to its command handler)
   */
  boolean queue(SchedulerState persisted, List<Scheduler.Event> events, Consumer<SchedulerState> then) {
    append(persisted, events);
    afterFlush.add(then);
    if (flushQueued) {
      return false;
    }
    flushQueued = true;
    return true;
  }

  /** Applies and queues {@code events} for the flush under way; returns the state after them. */
  SchedulerState append(SchedulerState persisted, List<Scheduler.Event> events) {
    SchedulerState state = current(persisted);
    for (Scheduler.Event event : events) {
      SchedulerState after = state.apply(event);
      pending.add(new Applied(event, state, after));
      state = after;
    }
    return state;
  }

  /** True when events or actions wait for a flush. */
  boolean hasPending() {
    return !pending.isEmpty() || !afterFlush.isEmpty();
  }

  /** Everything queued so far; the buffer starts empty again. */
  Batch take(SchedulerState persisted) {
    SchedulerState after = current(persisted);
    Batch batch = new Batch(pending.stream().map(Applied::event).toList(), after, List.copyOf(afterFlush));
    writing.clear();
    writing.addAll(pending);
    pending.clear();
    afterFlush.clear();
    flushQueued = false;
    return batch;
  }

  /**
   * The event handler: the state after {@code event}, as computed when it was queued if it is
   * the next event the last flush wrote; otherwise (recovery) {@code event} applied to
   * {@code state}.
   */
  SchedulerState written(SchedulerState state, Scheduler.Event event) {
    Applied next = writing.peekFirst();
    if (next != null && next.event() == event && next.before() == state) {
      writing.removeFirst();
      return next.after();
    }
    writing.clear();
    return state.apply(event);
  }
}
