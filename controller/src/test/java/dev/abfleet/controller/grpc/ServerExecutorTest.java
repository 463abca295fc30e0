package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/** The gRPC handler pool is bounded and sized from the cores. */
class ServerExecutorTest {

  @Test
  void sizesFourThreadsPerCoreWithinEightAndSixtyFour() {
    assertThat(ServerExecutor.threadsFor(1)).isEqualTo(8);
    assertThat(ServerExecutor.threadsFor(2)).isEqualTo(8);
    assertThat(ServerExecutor.threadsFor(3)).isEqualTo(12);
    assertThat(ServerExecutor.threadsFor(16)).isEqualTo(64);
    assertThat(ServerExecutor.threadsFor(128)).isEqualTo(64);
  }

  @Test
  void rejectsNoCores() {
    assertThatThrownBy(() -> ServerExecutor.threadsFor(0)).hasMessageContaining("cores 0");
  }

  @Test
  void startsAPoolThatNeverGrowsPastItsSize() {
    var pool = (ThreadPoolExecutor) ServerExecutor.start();
    try {
      assertThat(pool.getMaximumPoolSize())
          .isEqualTo(ServerExecutor.threadsFor(Runtime.getRuntime().availableProcessors()));
    } finally {
      pool.shutdown();
    }
  }
}
