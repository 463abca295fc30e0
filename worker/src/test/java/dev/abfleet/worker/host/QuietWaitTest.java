package dev.abfleet.worker.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bounded wait for a quiet host before a measured boot, on a fake clock. */
class QuietWaitTest {
  final AtomicLong now = new AtomicLong(50_000);
  final List<Long> slept = new ArrayList<>();

  /** Pressure readings in turn; the last one repeats. */
  QuietWait waitOver(Double... readings) {
    Deque<Double> left = new ArrayDeque<>(List.of(readings));
    return new QuietWait(() -> {
      Double r = left.size() > 1 ? left.poll() : left.peek();
      return r == null || r.isNaN() ? OptionalDouble.empty() : OptionalDouble.of(r);
    }, now::get, ms -> {
      slept.add(ms);
      now.addAndGet(ms);
    });
  }

  @Test
  void aQuietHostStartsAtOnce() throws InterruptedException {
    assertThat(waitOver(3.0).await(10, 60_000)).isZero();
    assertThat(slept).isEmpty();
  }

  @Test
  void pressureAtTheThresholdCountsAsQuiet() throws InterruptedException {
    assertThat(waitOver(10.0).await(10, 60_000)).isZero();
  }

  @Test
  void waitsAboutASecondAtATimeUntilThePressureFalls() throws InterruptedException {
    long waited = waitOver(37.2, 25.0, 12.0, 4.0).await(10, 60_000);

    assertThat(waited).isEqualTo(3_000);
    assertThat(slept).containsExactly(1_000L, 1_000L, 1_000L);
  }

  @Test
  void givesUpAtTheBoundAndLetsTheBootStart() throws InterruptedException {
    long waited = waitOver(80.0).await(10, 2_500);

    assertThat(waited).isEqualTo(2_500);
    assertThat(slept).containsExactly(1_000L, 1_000L, 500L);
  }

  @Test
  void readsOtherProcessesShareOfTheCpuNotTheLastBootsPressure() {
    // 2 CPUs, 1 s: the host was busy 150 ticks, the worker and its reaped children 140 of them
    PressureSnapshot before = new PressureSnapshot(new PressureSnapshot.Psi(35.0, 0), null, null, 1, 1, 1_000, 500, 2, 0);
    PressureSnapshot now = new PressureSnapshot(new PressureSnapshot.Psi(30.0, 0), null, null, 1, 1, 1_150, 640, 2, 1_000);
    assertThat(QuietWait.busy(before, now)).hasValueCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-9));
    // a neighbour's busy loop: 100 of 150 ticks were another process's
    PressureSnapshot hog = new PressureSnapshot(null, null, null, 1, 1, 1_150, 550, 2, 1_000);
    assertThat(QuietWait.busy(before, hog)).hasValueCloseTo(50.0, org.assertj.core.data.Offset.offset(1e-9));
    // no /proc/stat: the PSI avg10
    PressureSnapshot noStat = new PressureSnapshot(new PressureSnapshot.Psi(30.0, 0), null, null, 1, 1, -1, -1, 0, 1_000);
    assertThat(QuietWait.busy(before, noStat)).hasValueCloseTo(30.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(QuietWait.busy(before, new PressureSnapshot(null, null, null, 1, 1, -1, -1, 0, 1_000))).isEmpty();
  }

  @Test
  void aHostWithoutPsiIsNeverWaitedFor() throws InterruptedException {
    assertThat(waitOver(Double.NaN).await(10, 60_000)).isZero();
    assertThat(slept).isEmpty();
  }
}
