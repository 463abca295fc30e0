package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HarnessBuildTest {

  @TempDir Path cache;

  @Test
  void compilesStaticOptimisedC11IntoTheGivenOutput() {
    assertThat(HarnessBuild.compileArgv("gcc", Path.of("/c/fleetbench.c"), Path.of("/o/fleetbench")))
        .containsExactly("gcc", "-std=c11", "-static", "-O2", "-Wall", "-pthread", "-o", "/o/fleetbench",
            "/c/fleetbench.c");
  }

  @Test
  void asksTheCompilerForItsTarget() {
    assertThat(HarnessBuild.dumpMachineArgv("aarch64-linux-gnu-gcc"))
        .containsExactly("aarch64-linux-gnu-gcc", "-dumpmachine");
  }

  @Test
  void keysTheCacheByTargetAsWellAsSource() {
    byte[] source = "int main(void) { return 0; }".getBytes();

    assertThat(HarnessBuild.cacheKey(source, "x86_64-linux-gnu"))
        .isNotEqualTo(HarnessBuild.cacheKey(source, "aarch64-linux-gnu"))
        .isEqualTo(HarnessBuild.cacheKey(source.clone(), "x86_64-linux-gnu"))
        .hasSize(64);
  }

  @Test
  void asksEachCompilerForItsTargetOnlyOnce() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    CommandRunner compiler = (argv, workDir, logName, timeout) -> {
      calls.incrementAndGet();
      return new RunResult(0, false, false, Duration.ofMillis(5), null, null, "x86_64-linux-gnu\n", "", null);
    };
    String name = "gcc-" + UUID.randomUUID();
    new HarnessBuild(cache, name, compiler).targetTriple();

    String again = new HarnessBuild(cache, name, compiler).targetTriple();

    assertThat(again).isEqualTo("x86_64-linux-gnu");
    assertThat(calls).hasValue(1);
  }

  @Test
  void asksAgainAfterAFailedTargetQuery() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    CommandRunner flaky = (argv, workDir, logName, timeout) -> calls.incrementAndGet() == 1
        ? new RunResult(-1, true, false, timeout, null, null, "", "", null)
        : new RunResult(0, false, false, Duration.ofMillis(5), null, null, "aarch64-linux-gnu", "", null);
    HarnessBuild build = new HarnessBuild(cache, "gcc-" + UUID.randomUUID(), flaky);
    assertThatThrownBy(build::targetTriple).hasMessageContaining("killed after");

    assertThat(build.targetTriple()).isEqualTo("aarch64-linux-gnu");
  }

  @Test
  void namesThePackageToInstallWhenTheCompilerIsMissing() {
    HarnessBuild build = new HarnessBuild(cache, "abfleet-no-such-gcc");

    assertThatThrownBy(build::ensureBinary)
        .isInstanceOf(GuestImageException.class)
        .hasMessageStartingWith("abfleet-no-such-gcc not found: install gcc (apt-get install gcc)");
  }

  @Test
  void namesTheCrossPackagesForAnArm64Compiler() {
    assertThat(HarnessBuild.installHint(HarnessBuild.ARM64_COMPILER))
        .contains("gcc-aarch64-linux-gnu").contains("libc6-dev-arm64-cross");
  }

  @Test
  void buildsAStaticBinaryOnceAndThenReusesIt() throws Exception {
    HarnessBuild build = new HarnessBuild(cache, HarnessBuild.HOST_COMPILER);
    Path first = build.ensureBinary();
    Files.setLastModifiedTime(first, FileTime.fromMillis(1_000_000));

    Path second = build.ensureBinary();

    assertThat(second).isEqualTo(first);
    assertThat(Files.getLastModifiedTime(second).toMillis()).isEqualTo(1_000_000);
    assertThat(ElfInfo.read(Files.readAllBytes(first))).hasValueSatisfying(
        elf -> assertThat(elf.isStatic()).isTrue());
    try (var files = Files.list(first.getParent())) {
      assertThat(files).containsExactly(first); // the temp build directory is gone
    }
  }

  @Test
  void crossCompilesAStaticArm64Harness() throws Exception {
    HarnessBuild build = new HarnessBuild(cache, HarnessBuild.ARM64_COMPILER);

    Path binary = build.ensureBinary();

    assertThat(build.targetTriple()).isEqualTo("aarch64-linux-gnu");
    assertThat(ElfInfo.read(Files.readAllBytes(binary))).contains(new ElfInfo(ElfInfo.AARCH64, true));
  }
}
