package dev.abfleet.controller;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.persistence.testkit.ProcessingSuccess$;
import org.apache.pekko.persistence.testkit.WriteEvents;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;

/**
 * Holds every event write of a test journal until {@link #release} (at most 30 s), counting the
 * writes: what an actor does with commands that arrive while its journal is busy.
 */
public final class JournalHold {
  private final AtomicInteger writes = new AtomicInteger();
  private final CountDownLatch writing = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private JournalHold() {}

  /** From now on, the writes of {@code journal} wait for {@link #release}. */
  public static JournalHold on(PersistenceTestKit journal) {
    JournalHold hold = new JournalHold();
    journal.withPolicy((persistenceId, operation) -> {
      if (operation instanceof WriteEvents) {
        hold.writes.incrementAndGet();
        hold.writing.countDown();
        try {
          hold.release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return ProcessingSuccess$.MODULE$;
    });
    return hold;
  }

  /** True once a write has started (and waits), within 10 s. */
  public boolean awaitWriting() throws InterruptedException {
    return writing.await(10, TimeUnit.SECONDS);
  }

  /** Lets the held write and all later ones through. */
  public void release() {
    release.countDown();
  }

  /** Event writes started since the hold was put on. */
  public int writes() {
    return writes.get();
  }
}
