package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which tools build a guest image for which architecture, over a fake apt-get and dpkg. */
class GuestToolchainTest {

  @TempDir Path cache;

  private final List<List<String>> started = new ArrayList<>();

  /** apt-get download leaves a .deb; dpkg -x unpacks a bin/busybox of {@code machine} from it. */
  private CommandRunner apt(int machine) {
    return (argv, workDir, logName, timeout) -> {
      started.add(argv);
      try {
        if (argv.get(0).equals("apt-get")) {
          String pkg = argv.get(2).replace(":", "_");
          Files.write(workDir.resolve(pkg + "_1.35.0_all.deb"), new byte[] {1});
        } else if (argv.get(0).equals("dpkg")) {
          Path bin = Files.createDirectories(Path.of(argv.get(3)).resolve("bin"));
          Files.write(bin.resolve("busybox"), TestElf.of(machine, false));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return ok();
    };
  }

  private CommandRunner failing(RunResult result) {
    return (argv, workDir, logName, timeout) -> {
      started.add(argv);
      return result;
    };
  }

  @Test
  void usesTheHostsGccAndBusyboxForItsOwnArchitecture() throws Exception {
    GuestToolchain tools = GuestToolchain.forArch("x86_64", cache, "x86_64", failing(ok()));

    assertThat(tools).isEqualTo(new GuestToolchain("gcc", Path.of("/bin/busybox")));
    assertThat(started).isEmpty();
  }

  @Test
  void crossCompilesAndFetchesTheArm64BusyboxOnAnX86Host() throws Exception {
    GuestToolchain tools = GuestToolchain.forArch("aarch64", cache, "x86_64", apt(ElfInfo.AARCH64));

    assertThat(tools.compiler()).isEqualTo("aarch64-linux-gnu-gcc");
    assertThat(tools.busybox()).isEqualTo(cache.resolve("guest/busybox/aarch64/busybox-static_arm64/bin/busybox"));
    assertThat(started).hasSize(2);
    assertThat(started.get(0)).containsExactly("apt-get", "download", "busybox-static:arm64");
    assertThat(started.get(1)).startsWith("dpkg", "-x");
  }

  @Test
  void crossCompilesAndFetchesTheAmd64BusyboxOnAnArm64Host() throws Exception {
    GuestToolchain tools = GuestToolchain.forArch("x86_64", cache, "aarch64", apt(ElfInfo.X86_64));

    assertThat(tools.compiler()).isEqualTo("x86_64-linux-gnu-gcc");
    assertThat(tools.busybox()).isEqualTo(cache.resolve("guest/busybox/x86_64/busybox-static_amd64/bin/busybox"));
    assertThat(started.get(0)).containsExactly("apt-get", "download", "busybox-static:amd64");
  }

  @Test
  void fetchesTheForeignBusyboxOnlyOnce() throws Exception {
    GuestToolchain first = GuestToolchain.forArch("aarch64", cache, "x86_64", apt(ElfInfo.AARCH64));
    started.clear();

    GuestToolchain second = GuestToolchain.forArch("aarch64", cache, "x86_64", failing(ok()));

    assertThat(second).isEqualTo(first);
    assertThat(started).isEmpty();
  }

  @Test
  void namesTheMissingForeignArchitectureAndItsFixOnOneLine() throws Exception {
    RunResult noArm64 = new RunResult(100, false, false, Duration.ofMillis(200), null, null, "",
        "W: Download is performed unsandboxed as root\nE: Unable to locate package busybox-static:arm64\n", null);

    assertThatThrownBy(() -> GuestToolchain.forArch("aarch64", cache, "x86_64", failing(noArm64)))
        .isInstanceOf(GuestImageException.class)
        .hasMessageStartingWith("no static busybox for aarch64 guests: apt-get download busybox-static:arm64 failed:"
            + " enable arm64 packages with dpkg --add-architecture arm64 && apt-get update;")
        .hasMessageEndingWith("E: Unable to locate package busybox-static:arm64")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    try (var left = Files.list(cache.resolve("guest/busybox/aarch64"))) {
      assertThat(left).as("nothing half-unpacked stays in the cache").isEmpty();
    }
  }

  @Test
  void namesTheFixWhenAptIsMissing() {
    RunResult noApt = new RunResult(-1, false, false, Duration.ZERO, null, null, "", "",
        "cannot start apt-get: error=2, No such file or directory");

    assertThatThrownBy(() -> GuestToolchain.forArch("aarch64", cache, "x86_64", failing(noApt)))
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining("dpkg --add-architecture arm64 && apt-get update")
        .hasMessageEndingWith("cannot start apt-get: error=2, No such file or directory");
  }

  @Test
  void rejectsAnUnknownArchitectureBeforeRunningAnything() {
    assertThatThrownBy(() -> GuestToolchain.forArch("riscv64", cache, "x86_64", failing(ok())))
        .isInstanceOf(GuestImageException.class)
        .hasMessage("unknown guest arch 'riscv64'; expected x86_64 or aarch64");
    assertThat(started).isEmpty();
  }

  @Test
  void namesTheCrossPackagesForEachCrossCompiler() {
    assertThat(HarnessBuild.installHint("aarch64-linux-gnu-gcc"))
        .isEqualTo("install gcc-aarch64-linux-gnu and libc6-dev-arm64-cross"
            + " (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)");
    assertThat(HarnessBuild.installHint("x86_64-linux-gnu-gcc"))
        .isEqualTo("install gcc-x86-64-linux-gnu and libc6-dev-amd64-cross"
            + " (apt-get install gcc-x86-64-linux-gnu libc6-dev-amd64-cross)");
  }

  private static RunResult ok() {
    return new RunResult(0, false, false, Duration.ofMillis(5), null, null, "", "", null);
  }
}
