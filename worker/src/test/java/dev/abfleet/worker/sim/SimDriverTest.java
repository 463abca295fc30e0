package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.guest.Better;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimDriverTest {
  private static final String SHA = "ab".repeat(32);
  private static final List<String> THREE_ITERATIONS =
      List.of("abfleet.metrics=metadata_stat,seq_read", "abfleet.iterations=3", "abfleet.iteration_ms=100");
  private static final SimModel INSTANT = SimModel.defaults().withTimeScale(0);

  @TempDir Path dir;

  @Test
  void writesResultsTheGuestProtocolParserReads() throws Exception {
    BootOutcome outcome = new SimDriver(INSTANT, "sim-0001").boot(request("r1", "", THREE_ITERATIONS, 120));

    ParsedRun parsed = parse(outcome);
    assertThat(parsed.parseErrors()).isEmpty();
    assertThat(parsed.complete()).isTrue();
    assertThat(parsed.start().orElseThrow().kernelRelease()).isEqualTo("sim-abababababab");
    assertThat(parsed.measuredMetrics()).containsExactly("metadata_stat", "seq_read");
    assertThat(parsed.samples()).hasSize(6);
    assertThat(parsed.samples()).filteredOn(s -> s.metric().equals("seq_read"))
        .extracting(GuestSample::unit, GuestSample::better).containsOnly(tuple("MiB/s", Better.HIGHER));
    assertThat(outcome.accelerator()).isEqualTo("sim");
    assertThat(outcome.cleanExit()).isTrue();
    assertThat(Files.readString(outcome.consoleLog())).startsWith("SIMULATION:");
  }

  @Test
  void theSameSeedAndHostGiveTheSameValues() throws Exception {
    String first = Files.readString(new SimDriver(INSTANT, "sim-0001").boot(request("r1", "", List.of(), 120)).resultsLog());
    String again = Files.readString(new SimDriver(INSTANT, "sim-0001").boot(request("r1", "", List.of(), 120)).resultsLog());
    String otherHost = Files.readString(new SimDriver(INSTANT, "sim-0002").boot(request("r1", "", List.of(), 120)).resultsLog());

    assertThat(again).isEqualTo(first);
    assertThat(otherHost).isNotEqualTo(first);
  }

  @Test
  void anEffectTokenScalesItsMetric() throws Exception {
    SimModel exact = new SimModel(1, 0, List.of(new SimMetric("metadata_stat", 80_000, "ops/s", "higher", 0, 0),
        new SimMetric("seq_read", 1_400, "MiB/s", "higher", 0, 0)), SimBootTiming.defaults(), SimNoise.none(), 0);

    ParsedRun parsed = parse(new SimDriver(exact, "sim-0001")
        .boot(request("r1", "quiet sim.effect.metadata_stat=1.58", THREE_ITERATIONS, 120)));

    assertThat(parsed.samples()).filteredOn(s -> s.metric().equals("metadata_stat"))
        .extracting(GuestSample::value).containsOnly(126_400.0);
    assertThat(parsed.samples()).filteredOn(s -> s.metric().equals("seq_read"))
        .extracting(GuestSample::value).containsOnly(1_400.0);
  }

  @Test
  void failsBootsAtRoughlyTheArmsFailRate() throws Exception {
    List<SimBootRecord> boots = new ArrayList<>();
    SimDriver driver = new SimDriver(INSTANT, "sim-0001", boots::add);
    int failedToStart = 0;
    for (int i = 0; i < 400; i++) {
      ParsedRun parsed = parse(driver.boot(request("r" + i, "sim.fail_rate=0.25", THREE_ITERATIONS, 120)));
      failedToStart += parsed.start().isEmpty() ? 1 : 0;
    }

    // Binomial(400, 0.25): mean 100, sd 8.7; the band is about +-3.5 sd.
    assertThat(failedToStart).isBetween(70, 130);
    assertThat(boots.stream().filter(SimBootRecord::panicked).count()).isEqualTo(failedToStart);
  }

  @Test
  void cutsABootLongerThanItsTimeoutAndSleepsOnlyTheScaledTimeout() throws Exception {
    SimDriver driver = new SimDriver(SimModel.defaults().withTimeScale(0.01), "sim-0001");
    long start = System.nanoTime();

    BootOutcome outcome = driver.boot(request("r1", "", List.of("abfleet.iteration_ms=10000"), 3));

    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(outcome.timedOut()).isTrue();
    assertThat(outcome.exitCode()).isEqualTo(-1);
    assertThat(outcome.wall()).isEqualTo(Duration.ofSeconds(3));
    assertThat(tookMs).isBetween(25L, 1_000L);
    assertThat(parse(outcome).done()).isFalse();
  }

  @Test
  void onTheTimerABootReturnsAtOnceAndLeavesItsScaledDurationToWait() throws Exception {
    List<SimBootRecord> boots = new ArrayList<>();
    SimDriver driver = new SimDriver(SimModel.defaults(), "sim-0001", boots::add).waitedOnTimer();
    long start = System.nanoTime();

    BootOutcome outcome = driver.boot(request("r1", "", List.of("abfleet.iteration_ms=10000"), 3));

    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
    assertThat(outcome.timedOut()).isTrue();
    assertThat(driver.nanos("r1")).isEqualTo(Duration.ofSeconds(3).toNanos());
    assertThat(boots).as("recorded when its wait is over").isEmpty();
    driver.ended("r1", true);
    assertThat(boots).singleElement().satisfies(b -> {
      assertThat(b.runId()).isEqualTo("r1");
      assertThat(b.simulatedMs()).isEqualTo(3_000);
      assertThat(b.timedOut()).isTrue();
    });
    assertThat(driver.nanos("r1")).isZero();
  }

  @Test
  void onTheTimerACancelledBootIsNotRecorded() throws Exception {
    List<SimBootRecord> boots = new ArrayList<>();
    SimDriver driver = new SimDriver(SimModel.defaults().withTimeScale(0.5), "sim-0001", boots::add).waitedOnTimer();
    driver.boot(request("r1", "", List.of("abfleet.iteration_ms=10000"), 3));

    assertThat(driver.nanos("r1")).isEqualTo(Duration.ofMillis(1_500).toNanos());
    driver.ended("r1", false);

    assertThat(boots).isEmpty();
    assertThat(driver.nanos("r1")).isZero();
  }

  @Test
  void anInterruptStopsTheBoot() throws Exception {
    SimDriver driver = new SimDriver(SimModel.defaults(), "sim-0001");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        driver.boot(request("r1", "", List.of(), 120));
      } catch (Throwable e) {
        thrown.set(e);
      }
    });
    t.start();
    // Interrupted inside the boot's simulated sleep, not before the boot began.
    Eventually.await("the boot sleeping", Duration.ofSeconds(10), () -> t.getState() == Thread.State.TIMED_WAITING
        && java.util.Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals(SimDriver.class.getName())));
    t.interrupt();
    t.join(2_000);

    assertThat(t.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }

  @Test
  void aBadSimTokenBecomesAHarnessErrorNamingIt() throws Exception {
    ParsedRun parsed = parse(new SimDriver(INSTANT, "sim-0001").boot(request("r1", "sim.effect.nope=2", List.of(), 120)));

    assertThat(parsed.harnessErrors()).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("the sim model has no metric 'nope'"));
  }

  private BootRequest request(String runId, String cmdline, List<String> params, int timeoutS) throws IOException {
    Path work = Files.createDirectories(dir.resolve(runId + "-e1"));
    return new BootRequest(runId, "x86_64", dir.resolve(SHA), dir.resolve("initrd"), cmdline, params, 1, 512,
        Duration.ofSeconds(timeoutS), work);
  }

  private static ParsedRun parse(BootOutcome outcome) throws IOException {
    return GuestProtocol.parse(Files.readAllBytes(outcome.resultsLog()));
  }
}
