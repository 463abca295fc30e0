package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetches Debian's arm64 busybox-static with the host's apt (arm64 among its dpkg architectures, as bin/setup makes it). */
@Tag("e2e")
class ForeignBusyboxE2eTest {

  @TempDir Path cache;

  @Test
  void fetchesAStaticArm64BusyboxOnceThenServesItFromTheCache() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    ProcessRunner real = new ProcessRunner();
    GuestToolchain first = GuestToolchain.forArch("aarch64", cache, "x86_64", (argv, workDir, logName, timeout) -> {
      runs.incrementAndGet();
      return real.run(argv, workDir, logName, timeout);
    });

    GuestToolchain second = GuestToolchain.forArch("aarch64", cache, "x86_64", (argv, workDir, logName, timeout) -> {
      throw new AssertionError("the cached busybox needs no apt: " + argv);
    });

    assertThat(second).isEqualTo(first);
    assertThat(runs).hasValue(2);
    assertThat(ElfInfo.read(Files.readAllBytes(first.busybox()))).contains(new ElfInfo(ElfInfo.AARCH64, true));
  }
}
