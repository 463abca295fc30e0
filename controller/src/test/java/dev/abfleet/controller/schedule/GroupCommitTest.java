package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.store.GroupCommit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

  @Test
  void theEventHandlerGetsTheStateComputedWhenTheEventWasQueued() {
    GroupCommit<SchedulerState, Scheduler.Event> writes = Scheduler.groupCommit();
    SchedulerState persisted = SchedulerState.empty();
    var leased = new Scheduler.HostLeased("h1", 1, "e1");
    var drained = new Scheduler.HostDrained("h2", "maintenance");
    writes.queue(persisted, List.of(leased), s -> { });
    SchedulerState queued = writes.current(persisted);
    writes.queue(persisted, List.of(drained), s -> { });
    SchedulerState last = writes.current(persisted);

    GroupCommit.Batch<SchedulerState, Scheduler.Event> batch = writes.take(persisted);
    SchedulerState afterFirst = writes.written(persisted, leased);
    SchedulerState afterSecond = writes.written(afterFirst, drained);

    assertThat(batch.events()).containsExactly(leased, drained);
    assertThat(afterFirst).isSameAs(queued);
    assertThat(afterSecond).isSameAs(last).isSameAs(batch.after());
    assertThat(afterSecond.leases().isCurrent("h1", 1)).isTrue();
    assertThat(afterSecond.marks().isDraining("h2")).isTrue();
  }

  @Test
  void eventsItDidNotQueueAreAppliedAsInRecovery() {
    GroupCommit<SchedulerState, Scheduler.Event> writes = Scheduler.groupCommit();
    SchedulerState recovered = writes.written(SchedulerState.empty(), new Scheduler.HostLeased("h1", 3, "e1"));

    assertThat(recovered.leases().isCurrent("h1", 3)).isTrue();
  }

  @Test
  void onlyTheFirstQueueAsksForAFlush() {
    GroupCommit<SchedulerState, Scheduler.Event> writes = Scheduler.groupCommit();
    SchedulerState persisted = SchedulerState.empty();

    assertThat(writes.queue(persisted, List.of(), s -> { })).isTrue();
    assertThat(writes.queue(persisted, List.of(new Scheduler.InfraFailed("h1")), s -> { })).isFalse();
    writes.take(persisted);
    assertThat(writes.queue(persisted, List.of(), s -> { })).isTrue();
  }

  @Test
  void rejectsAPersistedStateThatChangedBehindItsBack() {
    GroupCommit<SchedulerState, Scheduler.Event> writes = Scheduler.groupCommit();
    SchedulerState persisted = SchedulerState.empty();
    writes.queue(persisted, List.of(new Scheduler.InfraFailed("h1")), s -> { });

    assertThatThrownBy(() -> writes.current(persisted.apply(new Scheduler.HostDrained("h9", "x"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("outside its group commit");
  }

  /** Live: events queued in bursts, flushed, then seen by the event handler; replay: applied one by one. */
  @Test
  void liveStateThroughFlushesEqualsTheReplayOfTheSameEvents() {
    Random random = new Random(11);
    GroupCommit<SchedulerState, Scheduler.Event> writes = Scheduler.groupCommit();
    SchedulerState persisted = SchedulerState.empty();
    List<Scheduler.Event> journal = new ArrayList<>();
    long[] epochs = new long[20];
    boolean[] leased = new boolean[20];
    for (int flush = 0; flush < 300; flush++) {
      int burst = random.nextInt(6);
      for (int i = 0; i < burst; i++) {
        int h = random.nextInt(20);
        String host = "h" + h;
        Scheduler.Event event = switch (random.nextInt(6)) {
          case 0, 1 -> leased[h] ? new Scheduler.LeaseReleased(host, epochs[h])
              : new Scheduler.HostLeased(host, ++epochs[h], "e" + random.nextInt(3));
          case 2 -> new Scheduler.InfraFailed(host);
          case 3 -> new Scheduler.InfraStreakEnded(host);
          case 4 -> new Scheduler.HostDrained(host, "d");
          default -> new Scheduler.NoiseRecorded(host, new double[] {random.nextDouble()}, 4);
        };
        if (event instanceof Scheduler.HostLeased) {
          leased[h] = true;
        } else if (event instanceof Scheduler.LeaseReleased) {
          leased[h] = false;
        }
        writes.queue(persisted, List.of(event), s -> { });
      }
      GroupCommit.Batch<SchedulerState, Scheduler.Event> batch = writes.take(persisted);
      for (Scheduler.Event event : batch.events()) {
        persisted = writes.written(persisted, event);
        journal.add(event);
      }
      assertThat(persisted).isSameAs(batch.after());
    }
    SchedulerState replayed = SchedulerState.empty().applyAll(journal);
    SchedulerState live = persisted;

    assertThat(replayed.leases()).isEqualTo(live.leases());
    assertThat(replayed.marks()).isEqualTo(live.marks());
    assertThat(replayed.health()).isEqualTo(live.health());
    assertThat(replayed.noise().residuals().keySet()).isEqualTo(live.noise().residuals().keySet());
    replayed.noise().residuals().forEach((host, r) -> assertThat(r).containsExactly(live.noise().residuals().get(host)));
  }
}
