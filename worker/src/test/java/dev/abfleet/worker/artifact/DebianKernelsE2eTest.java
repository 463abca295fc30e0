package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Downloads a real Debian kernel package with the host's apt. */
@Tag("e2e")
class DebianKernelsE2eTest {

  @TempDir
  Path dir;

  @Test
  void fetchesCloudKernelOnceThenServesItFromCache() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    ProcessRunner real = new ProcessRunner();
    DebianKernels kernels = new DebianKernels((argv, workDir, logName, timeout) -> {
      runs.incrementAndGet();
      return real.run(argv, workDir, logName, timeout);
    });

    Path first = kernels.fetch("linux-image-6.1.0-50-cloud-amd64", dir);
    int afterFirst = runs.get();
    Path second = kernels.fetch("linux-image-6.1.0-50-cloud-amd64", dir);

    assertThat(first).isEqualTo(second);
    assertThat(first.getFileName().toString()).isEqualTo("vmlinuz-6.1.0-50-cloud-amd64");
    assertThat(KernelImage.inspect(first).arch()).isEqualTo("x86_64");
    assertThat(afterFirst).isEqualTo(2);
    assertThat(runs).hasValue(2);
  }
}
