package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** In its own JVM: reading /dev/zero whole ends in OutOfMemoryError, which no test survives. */
  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void configThatNeverEndsIsExitTwoWithOneLine() throws Exception {
    TestJvm.Result r = TestJvm.run(dir, "ab", 80, Main.class, "ab", "--baseline", "a=" + bzImage(),
        "--candidate", "b=" + bzImage(), "--config", "/dev/zero");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("abfleet: /dev/zero: larger than 1 MiB, so not a fleet.yaml;"
        + " pass a fleet.yaml with --config\n");
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
