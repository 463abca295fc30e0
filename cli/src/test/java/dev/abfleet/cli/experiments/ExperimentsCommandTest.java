package dev.abfleet.cli.experiments;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Main;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.Policy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentsCommandTest {
  private final StringWriter err = new StringWriter();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream stdout;

  @BeforeEach
  void captureStdout() {
    stdout = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStdout() {
    System.setOut(stdout);
  }

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  private String stdout() {
    String s = out.toString(StandardCharsets.UTF_8);
    out.reset();
    return s;
  }

  @Test
  void listShowCancelAndWatchAgainstARealController(@TempDir Path dir) {
    ControllerSettings settings = ControllerSettings.inMemory().withStore(
        ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNode.start(settings)) {
      String target = "127.0.0.1:" + node.grpcPort();
      try (ExperimentClient client = new ExperimentClient(target)) {
        client.submit("e-old", spec("old kernel", 6));
        client.submit("e-new", spec("new kernel", 8));
      }

      assertThat(run("experiments", "list", "--controller", target)).isZero();
      assertThat(stdout()).startsWith("ID     STATE    PAIRS  PRIORITY  CREATED")
          .containsSubsequence("e-new  running  0/8    pr", "new kernel",
              "e-old  running  0/6    pr", "old kernel");

      assertThat(run("experiments", "cancel", "e-old", "--controller", target)).isZero();
      assertThat(stdout()).isEqualTo("experiment e-old cancelled after 0/6 pairs\n");
      assertThat(run("experiments", "cancel", "e-old", "--controller", target)).isZero();
      assertThat(stdout()).isEqualTo("experiment e-old had already ended: cancelled\n");

      assertThat(run("experiments", "list", "--state", "done", "--controller", target)).isZero();
      assertThat(stdout()).contains("e-old").doesNotContain("e-new");
      assertThat(run("experiments", "list", "--state", "running", "--controller", target)).isZero();
      assertThat(stdout()).contains("e-new").doesNotContain("e-old");

      assertThat(run("experiments", "show", "e-old", "--format", "json", "--controller", target))
          .isZero();
      assertThat(stdout()).contains("\"experiment\" : \"e-old\"").contains("\"state\" : \"cancelled\"");
      assertThat(run("report", "e-old", "--format", "html", "--controller", target)).isZero();
      assertThat(stdout()).startsWith("<!DOCTYPE html>").contains("<h1>e-old: base vs cand")
          .endsWith("</html>\n");
      assertThat(run("report", "e-old", "--controller", target)).isZero();
      assertThat(stdout()).startsWith("experiment e-old: base (baseline) vs cand");

      ByteArrayOutputStream progress = new ByteArrayOutputStream();
      PrintStream stderr = System.err;
      System.setErr(new PrintStream(progress, true, StandardCharsets.UTF_8));
      int watched;
      try {
        watched = run("experiments", "watch", "e-old", "--controller", target);
      } finally {
        System.setErr(stderr);
      }
      assertThat(watched).isEqualTo(ExitCodes.FAILED);
      assertThat(stdout()).contains("e-old");
      assertThat(progress.toString(StandardCharsets.UTF_8))
          .contains("abfleet: experiment e-old cancelled: cancelled from the command line");
    }
  }

  @Test
  void anUnknownIdIsOneLineAndExitTwo(@TempDir Path dir) {
    ControllerSettings settings = ControllerSettings.inMemory().withStore(
        ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNode.start(settings)) {
      String target = "127.0.0.1:" + node.grpcPort();

      assertThat(run("experiments", "show", "e-nope", "--controller", target))
          .isEqualTo(ExitCodes.BAD_INPUT);

      assertThat(err.toString()).isEqualTo("abfleet: unknown experiment 'e-nope'; list the known"
          + " ones with `abfleet experiments list`" + System.lineSeparator());
      assertThat(stdout()).isEmpty();
    }
  }

  @Test
  void badStateAndMissingSubcommandAreExitTwo() {
    assertThat(run("experiments", "list", "--state", "finished", "--controller", "127.0.0.1:1"))
        .isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--state 'finished': expected running or done");
    assertThat(run("experiments")).isEqualTo(ExitCodes.BAD_INPUT);
  }

  @Test
  void doneMeansEveryTerminalState() {
    assertThat(ListExperimentsCommand.states("done")).containsExactly("completed", "cancelled", "failed");
    assertThat(ListExperimentsCommand.states(null)).isEmpty();
  }

  @Test
  void tableAlignsColumnsAndShowsCreationInUtc() {
    ExperimentSummary e = ExperimentSummary.newBuilder().setExperimentId("e-1").setState("completed")
        .setPairsDone(12).setPairsWanted(12).setPriority("nightly").setName("fuse spin")
        .setCreatedAtMs(1_764_720_000_000L).build();

    assertThat(ListExperimentsCommand.table(List.of(e))).isEqualTo("""
        ID   STATE      PAIRS  PRIORITY  CREATED            NAME
        e-1  completed  12/12  nightly   2025-12-03 00:00Z  fuse spin
        """);
    assertThat(ListExperimentsCommand.table(List.of())).isEqualTo("no experiments\n");
  }

  private static ExperimentSpec spec(String name, int pairs) {
    return ExperimentSpec.newBuilder().setName(name)
        .addArms(arm("base", "baseline", "a"))
        .addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setPolicy(Policy.newBuilder().setPairs(pairs).setSeed(17))
        .setPriority("pr")
        .build();
  }

  private static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name)))
        .build();
  }
}
