package dev.abfleet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {
  @Test
  void returnsTheFirstValueThatIsDone() {
    AtomicInteger calls = new AtomicInteger();

    int v = Eventually.until("three calls", Duration.ofSeconds(5), calls::incrementAndGet, n -> n >= 3);

    assertThat(v).isEqualTo(3);
  }

  @Test
  void failsAfterTheLimitNamingWhatAndTheLastValue() {
    assertThatThrownBy(() -> Eventually.until("the answer", Duration.ofMillis(30), () -> 41, n -> n == 42))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the answer: not within PT0.03S; last seen: 41");
  }

  @Test
  void aTransientFailureIsNotYetAndAnyOtherPropagates() {
    AtomicInteger calls = new AtomicInteger();
    String v = Eventually.until("a server", Duration.ofSeconds(5), () -> {
      if (calls.incrementAndGet() < 3) {
        throw new IllegalStateException("starting");
      }
      return "up";
    }, "up"::equals, e -> e instanceof IllegalStateException);
    assertThat(v).isEqualTo("up");

    assertThatThrownBy(() -> Eventually.until("a file", Duration.ofSeconds(5), () -> {
      throw new IOException("disk gone");
    }, x -> true)).isInstanceOf(AssertionError.class).hasMessageContaining("disk gone");
  }

  @Test
  void awaitsACondition() {
    long until = System.nanoTime() + Duration.ofMillis(20).toNanos();

    Eventually.await("20 ms passed", Duration.ofSeconds(5), () -> System.nanoTime() >= until);

    assertThat(System.nanoTime()).isGreaterThanOrEqualTo(until);
  }
}
