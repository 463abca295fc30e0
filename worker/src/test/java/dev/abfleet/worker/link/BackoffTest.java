package dev.abfleet.worker.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static Backoff noJitter() {
    return new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2.0, 0.0, new SplittableRandom(1));
  }

  @Test
  void growsGeometricallyUpToTheCap() {
    Backoff b = noJitter();
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(100);
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(200);
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(400);
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(800);
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(1000);
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(1000);
  }

  @Test
  void resetStartsOverAfterASuccessfulConnect() {
    Backoff b = noJitter();
    b.next(Status.Code.UNAVAILABLE);
    b.next(Status.Code.UNAVAILABLE);
    b.reset();
    assertThat(b.next(Status.Code.UNAVAILABLE)).hasMillis(100);
  }

  @Test
  void anotherBackoffHasTheSameDelaysAndAStateOfItsOwn() {
    Backoff reconnects = noJitter();
    reconnects.next(Status.Code.UNAVAILABLE);
    reconnects.next(Status.Code.UNAVAILABLE);

    Backoff retries = reconnects.another();

    assertThat(retries.next(Status.Code.RESOURCE_EXHAUSTED)).hasMillis(100);
    assertThat(retries.next(Status.Code.RESOURCE_EXHAUSTED)).hasMillis(200);
    assertThat(reconnects.next(Status.Code.UNAVAILABLE)).hasMillis(400);
  }

  @Test
  void permanentErrorsWaitTheMaximumAtOnce() {
    Backoff b = noJitter();
    assertThat(b.next(Status.Code.INVALID_ARGUMENT)).hasMillis(1000);
  }

  @Test
  void jitterStaysWithinItsBand() {
    Backoff b = new Backoff(Duration.ofMillis(1000), Duration.ofMillis(1000), 1.0, 0.2, new SplittableRandom(7));
    for (int i = 0; i < 1000; i++) {
      long ms = b.next(Status.Code.UNAVAILABLE).toMillis();
      assertThat(ms).isBetween(800L, 1200L);
    }
  }

  @Test
  void spreadsTheFirstReconnectsOfManyDroppedWorkersOverMostOfASecond() {
    SplittableRandom random = new SplittableRandom(11);
    int[] per50Ms = new int[20];
    for (int worker = 0; worker < 10_000; worker++) {
      long ms = Backoff.standard(random.split()).next(Status.Code.UNAVAILABLE).toMillis();
      assertThat(ms).isBetween(50L, 950L);
      per50Ms[(int) (ms / 50)]++;
    }
    // Uniform over 900 ms puts 556 in each full 50 ms window; no window may hold a burst.
    for (int n : per50Ms) {
      assertThat(n).isLessThan(700);
    }
    assertThat(per50Ms[1]).isGreaterThan(400);
    assertThat(per50Ms[18]).isGreaterThan(400);
  }

  @Test
  void rejectsNonsenseSettings() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 2, 0.1, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
