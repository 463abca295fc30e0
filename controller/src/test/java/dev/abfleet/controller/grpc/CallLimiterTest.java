package dev.abfleet.controller.grpc;

import dev.abfleet.model.Limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CallLimiterTest {
  private static final InetSocketAddress PEER = new InetSocketAddress("10.1.2.3", 40000);

  @Test
  void keysAClientByItsTokenIdWithoutTheSecret() {
    assertThat(CallLimiter.clientKey("Bearer abf_0123456789ab_s3cr3t_with_underscores", PEER))
        .isEqualTo("token:abf_0123456789ab");
    assertThat(CallLimiter.clientKey("abf_0123456789ab_s3cr3t", PEER)).isEqualTo("token:abf_0123456789ab");
  }

  @Test
  void keysAClientWithoutATokenByItsAddress() {
    assertThat(CallLimiter.clientKey(null, PEER)).isEqualTo("ip:10.1.2.3");
    assertThat(CallLimiter.clientKey("Bearer not-a-token", PEER)).isEqualTo("ip:10.1.2.3");
    assertThat(CallLimiter.clientKey("Bearer abf_noseconduscore", PEER)).isEqualTo("ip:10.1.2.3");
  }

  @Test
  void bucketGivesItsBurstThenRefillsAtItsRate() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(2, 3, now::get);

    assertThat(bucket.tryTake()).isTrue();
    assertThat(bucket.tryTake()).isTrue();
    assertThat(bucket.tryTake()).isTrue();
    assertThat(bucket.tryTake()).isFalse();
    now.addAndGet(500_000_000L); // half a second at 2/s: one token
    assertThat(bucket.tryTake()).isTrue();
    assertThat(bucket.tryTake()).isFalse();
    assertThat(bucket.idle()).isFalse();
    now.addAndGet(10_000_000_000L);
    assertThat(bucket.idle()).isTrue();
  }

  @Test
  void madeUpTokenIdsDoNotEscapeTheAddressLimit() {
    AtomicLong now = new AtomicLong();
    var limits = new dev.abfleet.model.Limits(1, 2, 500, 100);
    CallLimiter limiter = new CallLimiter(limits, new dev.abfleet.controller.http.ControllerMetrics(),
        id -> false, now::get);

    int admitted = 0;
    for (int i = 0; i < 100; i++) {
      if (limiter.admit(String.format("Bearer abf_%012x_secret", i), PEER)) {
        admitted++;
      }
    }
    // Each made-up id has a fresh bucket of 2, but the address allows 4 x 2 at once.
    assertThat(admitted).isEqualTo(2 * CallLimiter.ADDRESS_FACTOR);
    assertThat(limiter.admit(null, new InetSocketAddress("10.9.9.9", 1))).isTrue();
  }

  @Test
  void knownTokensKeepTheirOwnLimitsWhateverTheirNeighboursDo() {
    AtomicLong now = new AtomicLong();
    var limits = new dev.abfleet.model.Limits(1, 3, 500, 100);
    CallLimiter limiter = new CallLimiter(limits, new dev.abfleet.controller.http.ControllerMetrics(),
        id -> id.equals("abf_0123456789ab") || id.equals("abf_ba9876543210"), now::get);
    // An unknown id drains the address's bucket (4 x 3)...
    for (int i = 0; i < 20; i++) {
      limiter.admit("Bearer abf_ffffffffffff_s", PEER);
    }
    assertThat(limiter.admit("Bearer abf_eeeeeeeeeeee_s", PEER)).as("the next unknown id").isFalse();
    // ...but known tokens from the same address still get their own 3.
    assertThat(limiter.admit("Bearer abf_0123456789ab_s", PEER)).isTrue();
    assertThat(limiter.admit("Bearer abf_0123456789ab_s", PEER)).isTrue();
    assertThat(limiter.admit("Bearer abf_0123456789ab_s", PEER)).isTrue();
    assertThat(limiter.admit("Bearer abf_0123456789ab_s", PEER)).isFalse();
    assertThat(limiter.admit("Bearer abf_ba9876543210_s", PEER)).isTrue();
  }
}
