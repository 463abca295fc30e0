package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeCacheTest {

  private static final String QEMU = "/usr/bin/qemu-system-x86_64";
  private static final String V7 = "QEMU emulator version 7.2.22";
  private static final Instant T0 = Instant.parse("2026-11-02T10:00:00Z");
  private static final AccelProbe TCG_ONLY =
      new AccelProbe(List.of("tcg"), Map.of("kvm", "probe guest did not finish within 5000 ms"));

  @TempDir Path dir;

  private final AtomicInteger probes = new AtomicInteger();

  private Function<String, AccelProbe> probing(AccelProbe verdict) {
    return binary -> {
      probes.incrementAndGet();
      return verdict;
    };
  }

  /** A fresh cache object each time, as after a worker restart. */
  private ProbeCache cache(Instant now, String version, boolean devKvm, AccelProbe verdict) {
    return new ProbeCache(dir.resolve(ProbeCache.FILE_NAME), ProbeCache.DEFAULT_TTL,
        Clock.fixed(now, ZoneOffset.UTC), binary -> ProbeCache.key(binary, version, devKvm), probing(verdict));
  }

  @Test
  void reusesTheStoredVerdictAfterARestart() {
    cache(T0, V7, true, TCG_ONLY).apply(QEMU);

    AccelProbe again = cache(T0.plus(Duration.ofHours(23)), V7, true, TCG_ONLY).apply(QEMU);

    assertThat(again).isEqualTo(TCG_ONLY);
    assertThat(probes).hasValue(1);
  }

  @Test
  void probesAgainOnceTheVerdictIsOlderThanTheTtl() {
    cache(T0, V7, true, TCG_ONLY).apply(QEMU);

    cache(T0.plus(Duration.ofHours(25)), V7, true, TCG_ONLY).apply(QEMU);

    assertThat(probes).hasValue(2);
  }

  @Test
  void probesAgainWhenQemuWasUpgraded() {
    cache(T0, V7, true, TCG_ONLY).apply(QEMU);

    cache(T0, "QEMU emulator version 8.2.0", true, TCG_ONLY).apply(QEMU);

    assertThat(probes).hasValue(2);
  }

  @Test
  void probesAgainWhenDevKvmAppeared() {
    AccelProbe kvm = new AccelProbe(List.of("kvm", "tcg"), Map.of());
    cache(T0, V7, false, TCG_ONLY).apply(QEMU);

    AccelProbe after = cache(T0, V7, true, kvm).apply(QEMU);

    assertThat(after.best()).isEqualTo("kvm");
    assertThat(probes).hasValue(2);
  }

  @Test
  void doesNotStoreAVerdictInWhichNothingWorked() {
    AccelProbe none = new AccelProbe(List.of(), Map.of("tcg", "cannot start qemu"));
    cache(T0, V7, true, none).apply(QEMU);

    cache(T0, V7, true, none).apply(QEMU);

    assertThat(probes).hasValue(2);
    assertThat(dir.resolve(ProbeCache.FILE_NAME)).doesNotExist();
  }

  @Test
  void doesNotStoreWhenTheQemuVersionIsUnknown() {
    cache(T0, "", true, TCG_ONLY).apply(QEMU);

    cache(T0, "", true, TCG_ONLY).apply(QEMU);

    assertThat(probes).hasValue(2);
  }

  @Test
  void probesAgainWhenTheFileIsGarbage() throws Exception {
    Files.writeString(dir.resolve(ProbeCache.FILE_NAME), "key=\\uZZZZ\nworking=kvm\n");

    AccelProbe p = cache(T0, V7, true, TCG_ONLY).apply(QEMU);

    assertThat(p).isEqualTo(TCG_ONLY);
    assertThat(probes).hasValue(1);
  }
}
