package dev.abfleet.controller.grpc;

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
}
