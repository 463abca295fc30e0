package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** How {@code abfleet soak} judges and prints the boots of its experiment, and the input it refuses. */
class SoakCommandTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();
  private final StringWriter err = new StringWriter();

  private static final String WARN = "[    1.912400] WARNING: CPU: 0 PID: 1 at fs/stat.c:31 0xffffffff81234567";

  private static Boot boot(int pair, int order, String status, int findings) {
    RunTelemetry.Builder t = RunTelemetry.newBuilder().setBootMs(1900 + pair * 100L).setRunMs(9000)
        .setConsoleFindings(findings);
    if (findings > 0) {
      t.addConsoleLines(WARN).addConsoleLines("[    1.912800] Call Trace:");
    }
    return Boot.newBuilder().setRunId("e1-p" + pair + "-a0-" + (order == 0 ? "soak" : "soak-twin"))
        .setPairIndex(pair).setOrderInPair(order).setStatus(status)
        .setMessage(status.equals("ok") ? "" : "VM exited 1 before the harness started").setTelemetry(t).build();
  }

  private static Experiment experiment(String state, Boot... boots) {
    return Experiment.newBuilder().setExperimentId("e1").setState(state).addAllBoots(java.util.List.of(boots)).build();
  }

  @Test
  void passesWhenEveryBootCompletedWithACleanConsole() {
    SoakResult r = SoakResult.of(experiment("completed", boot(1, 1, "ok", 0), boot(0, 0, "ok", 0), boot(0, 1, "ok", 0),
        boot(1, 0, "ok", 0)));

    assertThat(r.passed()).isTrue();
    assertThat(r.text()).isEqualTo("""
        boot 1/4 ok     1.9 s  console clean
        boot 2/4 ok     1.9 s  console clean
        boot 3/4 ok     2.0 s  console clean
        boot 4/4 ok     2.0 s  console clean
        soak: PASS 4/4
        """);
  }

  @Test
  void failsABootThatWarnedQuotingItsConsoleLines() {
    SoakResult r = SoakResult.of(experiment("completed", boot(0, 0, "ok", 0), boot(0, 1, "ok", 2)));

    assertThat(r.passed()).isFalse();
    assertThat(r.text()).contains("boot 2/2 ok     1.9 s  e1-p0-a0-soak-twin console: 2 lines matched\n    " + WARN
        + "\n    [    1.912800] Call Trace:\n").endsWith("soak: FAIL 1/2 boots clean, 1 printed console findings\n");
  }

  @Test
  void failsABootThatFailedNamingItAndWhy() {
    SoakResult r = SoakResult.of(experiment("completed", boot(0, 0, "boot_failed", 0), boot(0, 1, "ok", 0)));

    assertThat(r.passed()).isFalse();
    assertThat(r.text()).contains("boot 1/2 FAIL   1.9 s  e1-p0-a0-soak boot_failed: VM exited 1 before the harness"
        + " started  console clean").contains("soak: FAIL 1/2 boots clean, 1 failed");
  }

  @Test
  void doesNotHoldAHostFailureAgainstTheKernel() {
    SoakResult r = SoakResult.of(experiment("completed", boot(0, 0, "infra", 0), boot(0, 0, "ok", 0),
        boot(0, 1, "ok", 0)));

    assertThat(r.passed()).isTrue();
    assertThat(r.text()).contains("1 boot was lost to the host and retried").endsWith("soak: PASS 2/2\n");
  }

  @Test
  void failsAnExperimentThatDidNotCompleteEvenWithCleanBoots() {
    SoakResult r = SoakResult.of(experiment("cancelled", boot(0, 0, "ok", 0)).toBuilder().setMessage("stopped").build());

    assertThat(r.passed()).isFalse();
    assertThat(r.text()).endsWith("soak: FAIL 1/1 boots clean; experiment e1 cancelled: stopped\n");
  }

  @Test
  void jsonCarriesTheVerdictAndEachBootsConsole() throws Exception {
    JsonNode j = new ObjectMapper().readTree(
        SoakResult.of(experiment("completed", boot(0, 0, "ok", 0), boot(0, 1, "ok", 2))).json());

    assertThat(j.get("soak").asText()).isEqualTo("fail");
    assertThat(j.get("clean_boots").asInt()).isEqualTo(1);
    assertThat(j.at("/boots/1/console/findings").asInt()).isEqualTo(2);
    assertThat(j.at("/boots/1/console/lines/0").asText()).isEqualTo(WARN);
    assertThat(j.at("/boots/0/console/lines")).isEmpty();
  }

  @Test
  void rejectsAnInvalidConsolePatternBeforeStartingAnything() throws IOException {
    int code = Main.run(new PrintWriter(err, true), "soak", "--kernel", FakeKernels.bzImage(dir).toString(),
        "--console-pattern", "Oops[");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--console-pattern: console pattern 'Oops['");
    assertThat(home.path()).isEmptyDirectory();
  }

  @Test
  void rejectsBothKernelAndSpec() throws IOException {
    int code = Main.run(new PrintWriter(err, true), "soak", "--kernel", FakeKernels.bzImage(dir).toString(),
        "--spec", dir.resolve("s.yaml").toString());

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("give one of --kernel KERNEL or --spec FILE");
  }

  @Test
  void rejectsAnUnknownFormat() throws IOException {
    int code = Main.run(new PrintWriter(err, true), "soak", "--kernel", FakeKernels.bzImage(dir).toString(),
        "--format", "html");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--format html: expected text or json");
  }

  /** A soak pairs a kernel with itself: it decides nothing, so two boots are no undecidable design. */
  @Test
  void twoBootsOfAKernelBuiltFromSourceAreNotRefusedAsAnUndecidableDesign() throws IOException {
    Path tarball = Files.writeString(dir.resolve("linux-6.1.tar.xz"), "not read before a build");
    Files.writeString(dir.resolve("warn.patch"), "--- a/x\n+++ b/x\n");
    Path spec = Files.writeString(dir.resolve("soak.yaml"), String.join("\n",
        "benchmark: fuse-metadata",
        "arms:",
        "  - {name: stock, role: baseline, build: {source: " + tarball + ", config: abfleet-minimal}}",
        "  - {name: warns, role: candidate, build: {source: " + tarball + ", patches: [warn.patch],"
            + " config: abfleet-minimal}}",
        ""));
    SoakCommand soak = new SoakCommand();
    new picocli.CommandLine(soak).parseArgs("--spec", spec.toString(), "--arm", "warns", "--boots", "2");

    AbRequest request = soak.request();

    assertThat(request.pairs()).isEqualTo(1);
    assertThat(request.arms()).hasSize(2);
  }
}
