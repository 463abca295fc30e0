package dev.abfleet.controller.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The write buffer of an event-sourced actor (the scheduler, an experiment): the events its
 * commands decide wait here for the next flush, so that a burst of commands (hundreds of hosts
 * finishing blocks at once) costs one journal write instead of one each, and each answer waits
 * for one write instead of a queue of them. Handlers must read {@link #current}, the persisted
 * state with the waiting events applied, so that a change decided a moment ago is not decided
 * twice; an answer read from that state leaves only once its events are written ({@link #then}).
 *
 * <p>Each event is applied once: when it is queued, onto the state before it. The actor's event
 * handler takes the state computed then ({@link #written}) instead of applying the event again;
 * only events it has not seen (recovery) are applied there. Every write of the actor goes
 * through here, so its persisted state changes only at a flush and the chain always starts from
 * it. Used by its actor only (not thread-safe).
 *
 * @param <S> the actor's state (immutable: identity tells states apart)
 * @param <E> its events
 */
public final class GroupCommit<S, E> {
  /** What a flush writes, the state once it is written, and what to run then. */
  public record Batch<S, E>(List<E> events, S after, List<Consumer<S>> thens) {
    public void runAfter(S written) {
      thens.forEach(t -> t.accept(written));
    }
  }

  /** An event and the states just before and after it. */
  private record Applied<S, E>(E event, S before, S after) {}

  private final String owner;
  private final BiFunction<S, E, S> apply;
  private final List<Applied<S, E>> pending = new ArrayList<>();
  private final List<Consumer<S>> afterFlush = new ArrayList<>();
  // Taken by the last flush and not yet seen by the event handler, oldest first.
  private final Deque<Applied<S, E>> writing = new ArrayDeque<>();
  private boolean flushQueued;

  /**
   * @param owner what the actor is, for the message of a state changed outside the buffer
   * @param apply the state after an event (the actor's event handler)
   */
  public GroupCommit(String owner, BiFunction<S, E, S> apply) {
    this.owner = owner;
    this.apply = apply;
  }

  /** The persisted {@code state} plus the changes waiting for the flush. */
  public S current(S persisted) {
    if (pending.isEmpty()) {
      return persisted;
    }
    if (pending.get(0).before() != persisted) {
      throw new IllegalStateException("the " + owner + "'s state changed outside its group commit");
    }
    return pending.get(pending.size() - 1).after();
  }

  /**
   * Applies and queues {@code events} and queues {@code then}; true when the caller must send
   * the flush message (none is on its way yet).
   *
   * @param persisted the actor's persisted state (as given to its command handler)
   */
  public boolean queue(S persisted, List<? extends E> events, Consumer<S> then) {
    append(persisted, events);
    afterFlush.add(then);
    if (flushQueued) {
      return false;
    }
    flushQueued = true;
    return true;
  }

  /**
   * Runs {@code action} after the next write when something waits for it (an answer read from
   * events not yet written must not leave before them), and returns true; false when nothing
   * waits and the caller may act now.
   */
  public boolean then(Consumer<S> action) {
    if (!hasPending()) {
      return false;
    }
    afterFlush.add(action);
    return true;
  }

  /** Applies and queues {@code events} for the flush under way; returns the state after them. */
  public S append(S persisted, List<? extends E> events) {
    S state = current(persisted);
    for (E event : events) {
      S after = apply.apply(state, event);
      pending.add(new Applied<>(event, state, after));
      state = after;
    }
    return state;
  }

  /** True when events or actions wait for a flush. */
  public boolean hasPending() {
    return !pending.isEmpty() || !afterFlush.isEmpty();
  }

  /** Everything queued so far; the buffer starts empty again. */
  public Batch<S, E> take(S persisted) {
    S after = current(persisted);
    Batch<S, E> batch = new Batch<>(pending.stream().map(Applied::event).toList(), after, List.copyOf(afterFlush));
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
  public S written(S state, E event) {
    Applied<S, E> next = writing.peekFirst();
    if (next != null && next.event() == event && next.before() == state) {
      writing.removeFirst();
      return next.after();
    }
    writing.clear();
    return apply.apply(state, event);
  }
}
