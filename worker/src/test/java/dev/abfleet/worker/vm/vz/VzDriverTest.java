package dev.abfleet.worker.vm.vz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VzDriverTest {

  @TempDir
  Path dir;

  private final List<List<String>> started = new ArrayList<>();
  private final CommandRunner vfkit = (argv, workDir, logName, timeout) -> {
    started.add(argv);
    return new RunResult(0, false, false, Duration.ofSeconds(3), null, null, "", "", null);
  };
  private static final Function<String, Optional<Path>> VFKIT_INSTALLED =
      n -> Optional.of(Path.of("/opt/homebrew/bin", n));

  private BootRequest request(String arch, Path kernel) throws Exception {
    return new BootRequest("r1", arch, kernel, Files.write(dir.resolve("initrd.gz"), new byte[] {1}), "", List.of(),
        2, 1024, Duration.ofSeconds(60), dir.resolve("boot"));
  }

  @Test
  void unavailableOnLinux() {
    VzDriver d = new VzDriver("Linux", "amd64", VFKIT_INSTALLED, vfkit);

    assertThat(d.accelerators()).isEmpty();
    assertThat(d.unavailableReason()).hasValueSatisfying(r -> assertThat(r).contains("needs macOS", "Linux"));
  }

  @Test
  void unavailableOnIntelMac() {
    VzDriver d = new VzDriver("Mac OS X", "x86_64", VFKIT_INSTALLED, vfkit);

    assertThat(d.unavailableReason()).hasValueSatisfying(r -> assertThat(r).contains("Apple silicon"));
  }

  @Test
  void unavailableWithoutVfkit() {
    VzDriver d = new VzDriver("Mac OS X", "aarch64", n -> Optional.empty(), vfkit);

    assertThat(d.unavailableReason()).hasValue("vfkit not found: brew install vfkit");
  }

  @Test
  void availableOnAppleSiliconWithVfkit() {
    VzDriver d = new VzDriver("Mac OS X", "aarch64", VFKIT_INSTALLED, vfkit);

    assertThat(d.accelerators()).containsExactly("vz");
  }

  @Test
  void bootOnLinuxReportsWhyWithoutStartingAnything() throws Exception {
    VzDriver d = new VzDriver("Linux", "amd64", VFKIT_INSTALLED, vfkit);

    BootOutcome o = d.boot(request("aarch64", TestKernels.arm64Image(dir.resolve("Image"))));

    assertThat(o.launchError()).contains("needs macOS");
    assertThat(started).isEmpty();
  }

  @Test
  void refusesX86Guests() throws Exception {
    VzDriver d = new VzDriver("Mac OS X", "aarch64", VFKIT_INSTALLED, vfkit);

    BootOutcome o = d.boot(request("x86_64", TestKernels.bzImage(dir.resolve("vmlinuz"))));

    assertThat(o.launchError()).contains("aarch64 guests only");
  }

  @Test
  void bootsArm64ImageWithResultsOnTheShare() throws Exception {
    VzDriver d = new VzDriver("Mac OS X", "aarch64", VFKIT_INSTALLED, vfkit);

    BootOutcome o = d.boot(request("aarch64", TestKernels.arm64Image(dir.resolve("Image"))));

    assertThat(o.accelerator()).isEqualTo("vz");
    assertThat(o.resultsLog()).isEqualTo(dir.resolve("boot/share/results.jsonl"));
    assertThat(started.get(0)).startsWith("/opt/homebrew/bin/vfkit")
        .contains("virtio-fs,sharedDir=" + dir.resolve("boot/share") + ",mountTag=abfleet");
  }
}
