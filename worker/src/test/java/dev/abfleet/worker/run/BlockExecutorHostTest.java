package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.HostFacts;
import dev.abfleet.worker.host.BootFactsReader;
import dev.abfleet.worker.host.HostSampler;
import dev.abfleet.worker.host.PressureSampler;
import dev.abfleet.worker.host.QuietThreshold;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reports of a real host carry its pressure over each boot; a simulated host's carry none. */
class BlockExecutorHostTest {
  final List<WorkerMessage> sent = new CopyOnWriteArrayList<>();
  @TempDir Path root;

  List<RunTelemetry> runBlock(HostSampler host) {
    return runBlock(host, BlockExecutorTimesTest.threeRuns());
  }

  List<RunTelemetry> runBlock(HostSampler host, dev.abfleet.proto.fleet.v1.BlockAssignment block) {
    try (BlockExecutor executor = new BlockExecutor(new BlockExecutorTimesTest().procedure, sent::add, host)) {
      executor.submit(block);
      Eventually.await("block finished", java.time.Duration.ofSeconds(5),
          () -> sent.stream().anyMatch(WorkerMessage::hasBlockFinished));
    }
    return sent.stream().filter(m -> m.hasRunResult() || m.hasRunFailure())
        .map(m -> m.hasRunResult() ? m.getRunResult().getTelemetry() : m.getRunFailure().getTelemetry())
        .toList();
  }

  @Test
  void everyReportOfARealHostCarriesItsPressureFactsAndInterference() throws IOException {
    Path psi = root.resolve("proc/pressure/cpu");
    Files.createDirectories(psi.getParent());
    Files.writeString(psi, "some avg10=37.20 avg60=20.00 avg300=5.00 total=900000\n");
    AtomicLong clock = new AtomicLong(1_000);
    HostSampler host = new HostSampler(new PressureSampler(root, () -> clock.getAndAdd(500)),
        new BootFactsReader(root, new HostFacts("x86_64", 2, 4096, "cpu", "6.8.0", "Linux"), Map.of()),
        QuietThreshold.DEFAULT);

    List<RunTelemetry> t = runBlock(host);

    assertThat(t).hasSize(3).allSatisfy(r -> {
      assertThat(r.getHostPressure().getHasPsi()).isTrue();
      assertThat(r.getHostPressure().getCpuSomeAvg10()).isEqualTo(37.20);
      assertThat(r.getHostPressure().getWindowMs()).isEqualTo(500);
      assertThat(r.getHostFacts().getMemoryMib()).isEqualTo(4096);
      assertThat(r.getInterfered()).isTrue();
    });
  }

  @Test
  void aSimulatedHostsReportsCarryNoHostPressure() {
    List<RunTelemetry> t = runBlock(HostSampler.NONE);

    assertThat(t).hasSize(3).allSatisfy(r -> {
      assertThat(r.hasHostPressure()).isFalse();
      assertThat(r.hasHostFacts()).isFalse();
      assertThat(r.getInterfered()).isFalse();
    });
  }

  @Test
  void theExperimentsQuietThresholdDecidesInterferenceAndAQuietHostIsNotWaitedFor() throws IOException {
    Path psi = root.resolve("proc/pressure/cpu");
    Files.createDirectories(psi.getParent());
    Files.writeString(psi, "some avg10=37.20 avg60=20.00 avg300=5.00 total=900000\n");
    AtomicLong clock = new AtomicLong(1_000);
    HostSampler host = new HostSampler(new PressureSampler(root, () -> clock.getAndAdd(500)), null,
        QuietThreshold.DEFAULT);
    var quiet = dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setCpuSomePct(50).setMaxWaitS(60).build();
    var block = BlockExecutorTimesTest.threeRuns().toBuilder();
    block.getRunsBuilderList().forEach(r -> r.setHostQuiet(quiet));

    List<RunTelemetry> t = runBlock(host, block.build());

    assertThat(t).hasSize(3).allSatisfy(r -> {
      assertThat(r.getHostPressure().getCpuSomeAvg10()).isEqualTo(37.20);
      assertThat(r.getInterfered()).isFalse();
      assertThat(r.getQuietWaitMs()).isZero();
    });
  }
}
