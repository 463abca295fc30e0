package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One client's calls on several threads share a Reconnect (the fleet bench watches 100
 * experiments through one): a call answered on one thread while another backs off must never
 * make the controller look away since the clock's origin. The clock stands still here, so any
 * "unavailable for 10 min" is that race.
 */
@Timeout(60)
class ReconnectThreadsTest {
  @Test
  void threadsBackingOffWhileOthersAreAnsweredNeverHitTheLimitEarly() throws Exception {
    long uptime = Duration.ofHours(10).toNanos();
    Reconnect reconnect = new Reconnect("127.0.0.1:1", Duration.ofMinutes(10),
        new PrintStream(OutputStream.nullOutputStream()), () -> uptime, ms -> { }, new Random(1));
    Reconnect.forgetReached();
    reconnect.reached();
    StatusRuntimeException timeout = Status.DEADLINE_EXCEEDED.asRuntimeException();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      boolean answered = t % 2 == 0;
      threads.add(new Thread(() -> {
        for (int i = 0; i < 200_000 && failures.isEmpty(); i++) {
          try {
            if (answered) {
              reconnect.reached();
            } else {
              reconnect.backOff(timeout);
            }
          } catch (Reconnect.ControllerUnreachable e) {
            failures.add(e);
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failures).isEmpty();
  }
}
