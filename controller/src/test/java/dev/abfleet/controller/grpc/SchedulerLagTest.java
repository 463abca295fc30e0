package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SchedulerLagTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final SchedulerLag lag = new SchedulerLag(Duration.ofSeconds(1), now::get);

  private void after(long millis) {
    now.addAndGet(Duration.ofMillis(millis).toNanos());
  }

  @Test
  void isNotBehindWhileAnswersComeWithinTheLimit() {
    assertThat(lag.send()).isTrue();
    after(900);
    lag.answered();

    assertThat(lag.behind()).isFalse();
  }

  @Test
  void isBehindOnceAQuestionWaitsLongerThanTheLimit() {
    lag.send();
    after(1000);
    assertThat(lag.behind()).as("exactly the limit is not late").isFalse();

    after(1);

    assertThat(lag.behind()).isTrue();
  }

  @Test
  void staysBehindAfterASlowAnswerUntilAFastOne() {
    lag.send();
    after(3000);
    lag.answered();
    assertThat(lag.behind()).isTrue();

    lag.send();
    after(10);
    lag.answered();

    assertThat(lag.behind()).isFalse();
  }

  @Test
  void sendsOneQuestionAtATime() {
    assertThat(lag.send()).isTrue();

    assertThat(lag.send()).isFalse();
    lag.answered();
    assertThat(lag.send()).isTrue();
  }

  @Test
  void reportsTheLongerOfTheLastAnswerAndTheWaitSoFarInSeconds() {
    assertThat(lag.seconds()).isZero();
    lag.send();
    after(250);
    lag.answered();
    assertThat(lag.seconds()).isEqualTo(0.25);

    lag.send();
    after(1500);

    assertThat(lag.seconds()).isEqualTo(1.5);
  }
}
