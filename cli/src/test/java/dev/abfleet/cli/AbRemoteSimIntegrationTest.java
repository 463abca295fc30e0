package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.Eventually;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code abfleet ab --controller} against a real in-process controller and four sim workers over
 * loopback gRPC: two with label cpu=a, two with cpu=b. Kernels are sim placeholders.
 */
class AbRemoteSimIntegrationTest {
  private static final Pattern SUBMITTED = Pattern.compile("experiment (\\S+) submitted to ");

  @TempDir static Path home;
  static ControllerNode controller;
  static SimFleet a;
  static SimFleet b;

  /** Result of one command run: exit code, stdout (the report), stderr (progress). */
  record Run(int exit, String out, String err) {
    String experimentId() {
      Matcher m = SUBMITTED.matcher(err);
      assertThat(m.find()).as(err).isTrue();
      return m.group(1);
    }
  }

  @BeforeAll
  static void startFleet() throws Exception {
    controller = ControllerNode.start(ControllerSettings.inMemory());
    SimModel model = SimModel.defaults().withTimeScale(0.001);
    a = SimFleet.start(address(), 2, "a-", model, Map.of("cpu", "a"), home.resolve("a"), r -> { });
    b = SimFleet.start(address(), 2, "b-", model, Map.of("cpu", "b"), home.resolve("b"), r -> { });
    SimFleet.awaitHosts(address(), 4, 30);
  }

  @AfterAll
  static void stopFleet() {
    a.close();
    b.close();
    controller.close();
  }

  private static String address() {
    return "127.0.0.1:" + controller.grpcPort();
  }

  private static String kernel(String name, Map<String, Double> effects) throws Exception {
    return SimArtifacts.kernel(home.resolve("kernels"), name, effects).getUri();
  }

  private static Run ab(String... args) {
    List<String> all = new ArrayList<>(List.of("--controller", address(), "--hypervisor", "sim",
        "--metrics", "metadata_stat", "--iterations", "3", "--seed", "42"));
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AbCommand cmd = new AbCommand();
    new CommandLine(cmd).parseArgs(all.toArray(String[]::new));
    int exit = cmd.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  @Timeout(60)
  void submitsToTheRunningControllerAndPrintsTheReportWithAVerdict() throws Exception {
    Run r = ab("--baseline", "base=" + kernel("base", Map.of()),
        "--candidate", "slow=" + kernel("slow", Map.of("metadata_stat", 0.6)), "--pairs", "8");

    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.OK);
    assertThat(r.err()).contains(AbSession.SIMULATION).contains("hypervisor sim, priority pr");
    assertThat(r.out()).as(r.out()).contains("metadata_stat").contains("regressed");
    try (ExperimentClient client = new ExperimentClient(address())) {
      Experiment e = client.get(r.experimentId());
      assertThat(e.getState()).isEqualTo("completed");
      assertThat(e.getSpec().getPriority()).isEqualTo("pr");
      assertThat(e.getSpec().getSelector().getHypervisor()).isEqualTo("sim");
      assertThat(e.getSpec().getSelector().getHostsList()).isEmpty();
      assertThat(e.getBootsList()).extracting(x -> x.getHostId().substring(0, 2)).contains("a-", "b-");
    }
  }

  @Test
  @Timeout(60)
  void gateTurnsARegressionIntoExitOne() throws Exception {
    Run r = ab("--baseline", "base=" + kernel("base", Map.of()),
        "--candidate", "slow=" + kernel("slow", Map.of("metadata_stat", 0.6)), "--pairs", "8", "--gate",
        "--format", "json", "--priority", "adhoc");

    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.GATE);
    assertThat(r.out()).startsWith("{").contains("\"regressed\"");
    try (ExperimentClient client = new ExperimentClient(address())) {
      assertThat(client.get(r.experimentId()).getSpec().getPriority()).isEqualTo("adhoc");
    }
  }

  @Test
  @Timeout(60)
  void classByLabelGivesOneRowPerHostClassAndThePooledRow() throws Exception {
    Run r = ab("--baseline", "base=" + kernel("base", Map.of()),
        "--candidate", "cand=" + kernel("cand", Map.of()) + ":sim.effect.metadata_stat@b-=0.6",
        "--pairs", "8", "--class-by", "label:cpu");

    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.OK);
    assertThat(r.err()).contains("class by label:cpu");
    assertThat(r.out()).as(r.out()).contains("host classes: sim/sim cpu=a (8 pairs), sim/sim cpu=b (8 pairs)")
        .containsPattern("metadata_stat +sim/sim cpu=a ")
        .containsPattern("metadata_stat +sim/sim cpu=b .* regressed")
        .contains("verdict: regressed");
    // Class a has no effect, but which sim host runs which pair depends on timing, and now and
    // then (allowed up to alpha 0.05) its 8 noisy pairs make a false positive: seen once, with
    // an interval of [-26.9%, -0.0%]. The pooled row must
    // follow the classes either way: class_heterogeneity when they disagree, the shared verdict
    // when both regressed.
    String classA = r.out().lines().filter(l -> l.matches("metadata_stat +sim/sim cpu=a .*")).findFirst().orElseThrow();
    assertThat(r.out()).as(r.out()).containsPattern(classA.strip().endsWith("regressed")
        ? "metadata_stat +pooled .* regressed" : "metadata_stat +pooled .*inconclusive \\(class_heterogeneity\\)");
    try (ExperimentClient client = new ExperimentClient(address())) {
      Experiment e = client.get(r.experimentId());
      assertThat(e.getSpec().getPolicy().getClassByList()).containsExactly("label:cpu");
      assertThat(e.getPairsDone()).isEqualTo(16);
      assertThat(e.getComparisonsList()).filteredOn(c -> c.getHostClass().endsWith("cpu=b"))
          .extracting(c -> c.getVerdict()).containsExactly("regressed");
    }
  }

  @Test
  @Timeout(30)
  void labelNoHostCarriesIsRejectedAtSubmitWithTheControllersReason() throws Exception {
    Run r = runMain("--baseline", "base=" + kernel("base", Map.of()), "--candidate", "c=" + kernel("c", Map.of()),
        "--label", "cpu=c");

    assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).startsWith("abfleet: ").contains("cpu=c");
  }

  @Test
  @Timeout(30)
  void interruptingTheCommandCancelsTheSubmittedExperimentWithAReason() throws Exception {
    AtomicInteger exit = new AtomicInteger(-1);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    AbCommand cmd = new AbCommand();
    new CommandLine(cmd).parseArgs("--controller", address(), "--hypervisor", "sim", "--seed", "1",
        "--baseline", "base=" + kernel("base", Map.of()), "--candidate", "long=" + kernel("long", Map.of()),
        "--pairs", "1000", "--iterations", "1000");
    Thread t = new Thread(() -> exit.set(cmd.run(new PrintStream(new ByteArrayOutputStream()), errStream)));
    t.start();
    Matcher submitted = Eventually.until("the submitted line", Duration.ofSeconds(10),
        () -> SUBMITTED.matcher(err.toString(StandardCharsets.UTF_8)), Matcher::find);
    String id = submitted.group(1);

    t.interrupt();
    t.join(15_000);

    assertThat(exit.get()).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCodes.FAILED);
    try (ExperimentClient client = new ExperimentClient(address())) {
      Experiment e = client.get(id);
      assertThat(e.getState()).isEqualTo("cancelled");
      assertThat(e.getMessage()).contains(AbSession.INTERRUPTED);
    }
  }

  private static Run runMain(String... args) {
    List<String> all = new ArrayList<>(List.of("ab", "--controller", address(), "--hypervisor", "sim"));
    all.addAll(List.of(args));
    java.io.StringWriter err = new java.io.StringWriter();
    int exit = Main.run(new java.io.PrintWriter(err, true), all.toArray(String[]::new));
    return new Run(exit, "", err.toString());
  }
}
