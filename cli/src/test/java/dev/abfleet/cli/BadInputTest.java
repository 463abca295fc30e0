package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Bad input ends with one line naming the problem and the fix, exit code 2, nothing written. */
class BadInputTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  private String oneLine() {
    String text = err.toString().strip();
    assertThat(text.lines().count()).as("one line: " + text).isEqualTo(1);
    return text;
  }

  private Path fakeKernel() throws IOException {
    return Files.writeString(dir.resolve("not-a-kernel"), "#!/bin/sh\necho hello\n".repeat(100));
  }

  private Path bzImage() throws IOException {
    return FakeKernels.bzImage(dir);
  }

  @Test
  void missingKernelPathIsExitTwoWithOneLine() throws IOException {
    int code = run("ab", "--baseline", "a=" + dir.resolve("nope"), "--candidate", "b=" + bzImage());
    assertThat(code).isEqualTo(2);
    assertThat(oneLine()).contains("--baseline a").contains(dir.resolve("nope").toString());
    assertThat(home.path()).isEmptyDirectory();
  }

  private Path fifo(String name) throws Exception {
    Path pipe = dir.resolve(name);
    assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).as("mkfifo").isZero();
    return pipe;
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  @EnabledOnOs(OS.LINUX)
  void specWhoseKernelIsAFifoIsExitTwoAtOnce() throws Exception {
    Path pipe = fifo("vmlinuz-pipe");
    Path spec = Files.writeString(dir.resolve("spec.yaml"), "arms:\n  - {name: a, role: baseline, kernel: " + bzImage()
        + "}\n  - {name: b, role: candidate, kernel: " + pipe + "}\n");

    assertThat(run("ab", "--spec", spec.toString())).isEqualTo(2);
    assertThat(oneLine()).contains(pipe + " is a FIFO (named pipe), not a regular file");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  @EnabledOnOs(OS.LINUX)
  void specFileThatIsAFifoIsExitTwoAtOnce() throws Exception {
    Path pipe = fifo("spec.yaml");

    assertThat(run("ab", "--spec", pipe.toString())).isEqualTo(2);
    assertThat(oneLine()).contains(pipe + " is a FIFO (named pipe), not a regular file; pass a regular spec file with --spec");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  @EnabledOnOs(OS.LINUX)
  void analyzeOfAFifoIsExitTwoAtOnce() throws Exception {
    Path pipe = fifo("samples.jsonl");

    assertThat(run("analyze", pipe.toString())).isEqualTo(2);
    assertThat(oneLine()).contains(pipe + " is a FIFO (named pipe), not a regular file; pass a regular file of samples");
  }

  @Test
  void simKernelsThatAreNoPlaceholdersAreExitTwo() throws Exception {
    Path base = Path.of(dev.abfleet.worker.sim.SimArtifacts.kernel(dir, "base").getUri());
    byte[] random = new byte[4096];
    new java.util.Random(3).nextBytes(random);
    for (Path bad : List.of(Files.write(dir.resolve("random.bin"), random),
        Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n"),
        Files.createFile(dir.resolve("empty")))) {
      err.getBuffer().setLength(0);

      int code = run("ab", "--controller", "127.0.0.1:1", "--hypervisor", "sim", "--baseline", "a=" + base,
          "--candidate", "b=" + bad);

      assertThat(code).as(err.toString()).isEqualTo(2);
      assertThat(oneLine()).contains(bad + " is neither a sim placeholder kernel", "abfleet sim-kernels");
    }
  }

  @Test
  void fileThatIsNotAKernelIsExitTwo() throws IOException {
    int code = run("ab", "--baseline", "a=" + bzImage(), "--candidate", "b=" + fakeKernel());
    assertThat(code).isEqualTo(2);
    assertThat(oneLine()).contains("--candidate b").contains("not a Linux kernel");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  void unknownMetricIsExitTwoAndNamesTheValidOnes() throws IOException {
    Path k = bzImage();
    int code = run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--metrics", "metadata_stat,fsync_storm");
    assertThat(code).isEqualTo(2);
    assertThat(oneLine()).contains("fsync_storm").contains("metadata_stat, negative_lookup");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  void malformedFleetYamlIsExitTwoWithFileAndLine() throws IOException {
    Path k = bzImage();
    Path yaml = Files.writeString(dir.resolve("fleet.yaml"), "policy:\n  pairs: 8\n  alhpa: 0.05\n");
    int code = run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--config", yaml.toString());
    assertThat(code).isEqualTo(2);
    assertThat(oneLine()).startsWith("abfleet: " + yaml + ":3: unknown key 'alhpa'").contains("alpha");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  void sameNameOnBothArmsIsExitTwo() throws IOException {
    Path k = bzImage();
    assertThat(run("ab", "--baseline", "x=" + k, "--candidate", "x=" + k)).isEqualTo(2);
    assertThat(oneLine()).contains("different names");
  }

  @Test
  void armWithoutKernelIsExitTwo() {
    assertThat(run("ab", "--baseline", "justaname", "--candidate", "b=/x")).isEqualTo(2);
    assertThat(oneLine()).contains("NAME=KERNEL");
  }

  @Test
  void looksMustBeAscendingAndExcludePairs() throws IOException {
    Path k = bzImage();
    assertThat(run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--looks", "16,8")).isEqualTo(2);
    assertThat(oneLine()).contains("--looks [16, 8]").contains("ascending");
    err.getBuffer().setLength(0);
    assertThat(run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--looks", "8,16", "--pairs", "8")).isEqualTo(2);
    assertThat(oneLine()).contains("drop --pairs");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  void unknownFormatIsExitTwo() throws IOException {
    Path k = bzImage();
    assertThat(run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--format", "xml")).isEqualTo(2);
    assertThat(oneLine()).contains("text, json, markdown or html");
  }

  @Test
  void unknownOptionIsExitTwo() {
    assertThat(run("ab", "--baseline", "a=/k", "--candidate", "b=/k", "--bogus")).isEqualTo(2);
    assertThat(oneLine()).contains("--bogus").contains("abfleet ab --help");
  }

  @Test
  void missingRequiredOptionIsExitTwo() {
    assertThat(run("ab", "--baseline", "a=/k")).isEqualTo(2);
    assertThat(oneLine()).contains("--candidate");
  }

  /** In its own JVM: were /dev/zero read whole, it would end in OutOfMemoryError, which no test survives. */
  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void configThatIsAnEndlessDeviceIsExitTwoWithOneLine() throws Exception {
    TestJvm.Result r = TestJvm.run(dir, "ab", 80, Main.class, "ab", "--baseline", "a=" + bzImage(),
        "--candidate", "b=" + bzImage(), "--config", "/dev/zero");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("abfleet: /dev/zero is a character device, not a regular file; pass a regular"
        + " fleet.yaml with --config\n");
  }

  @Test
  void fleetYamlNestedFiveThousandDeepIsExitTwoWithOneLine() throws IOException {
    Path k = bzImage();
    Path yaml = Files.writeString(dir.resolve("fleet.yaml"),
        "policy:\n  looks: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
    assertThat(run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k, "--config", yaml.toString()))
        .isEqualTo(2);
    assertThat(oneLine()).startsWith("abfleet: " + yaml + ":2: nested more than 32 levels deep");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void abOnTheStoreOfARunningControllerIsExitTwoNamingIt() throws IOException {
    Path k = bzImage();
    try (StoreLock running = StoreLock.acquire(home.path().resolve("store"), "test", "test")) {
      assertThat(run("ab", "--baseline", "a=" + k, "--candidate", "b=" + k)).isEqualTo(2);
    }
    assertThat(oneLine()).isEqualTo("abfleet: the store in " + home.path() + " is in use by another controller (pid "
        + ProcessHandle.current().pid() + "); stop it or point ab at it with --controller HOST:PORT, or set"
        + " ABFLEET_HOME to another directory");
  }
}
