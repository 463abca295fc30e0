package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DebianKernelsTest {

  @TempDir
  Path dir;

  private final List<List<String>> started = new ArrayList<>();

  @Test
  void downloadsWithAptGet() {
    assertThat(DebianKernels.downloadArgv("linux-image-6.1.0-50-cloud-amd64"))
        .containsExactly("apt-get", "download", "linux-image-6.1.0-50-cloud-amd64");
  }

  @Test
  void extractsWithDpkg() {
    assertThat(DebianKernels.extractArgv(Path.of("/t/k.deb"), Path.of("/t/root")))
        .containsExactly("dpkg", "-x", "/t/k.deb", "/t/root");
  }

  @Test
  void rejectsPackageNameThatIsAnOption() {
    assertThatThrownBy(() -> DebianKernels.downloadArgv("--allow-unauthenticated"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'--allow-unauthenticated'");
  }

  @Test
  void returnsCachedKernelWithoutRunningApt() throws Exception {
    Path boot = Files.createDirectories(dir.resolve("kernels/linux-image-x/boot"));
    Path vmlinuz = Files.write(boot.resolve("vmlinuz-6.1.0-x"), new byte[] {1});
    CommandRunner runner = (argv, workDir, logName, timeout) -> {
      started.add(argv);
      throw new AssertionError("nothing should run");
    };

    assertThat(new DebianKernels(runner).fetch("linux-image-x", dir)).isEqualTo(vmlinuz);
    assertThat(started).isEmpty();
  }

  @Test
  void explainsAptFailure() {
    CommandRunner failingApt = (argv, workDir, logName, timeout) -> new RunResult(100, false, false,
        Duration.ofMillis(300), null, null, "", "E: Unable to locate package linux-image-x", null);

    assertThatThrownBy(() -> new DebianKernels(failingApt).fetch("linux-image-x", dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("apt-get download linux-image-x failed: run apt-get update first")
        .hasMessageContaining("Unable to locate package");
    assertThat(dir.resolve("kernels")).isEmptyDirectory();
  }
}
