package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet options of {@code abfleet ab}: what they put into the spec, and one-line errors for bad values. */
class AbFleetOptionsTest {
  @TempDir Path dir;
  private final StringWriter err = new StringWriter();
  private Path kernel;

  @BeforeEach
  void isolateHome() throws IOException {
    System.setProperty("abfleet.home", Files.createDirectory(dir.resolve("home")).toString());
    kernel = FakeKernels.bzImage(dir);
  }

  @AfterEach
  void restoreHome() {
    System.clearProperty("abfleet.home");
  }

  /** Runs ab with the two arms and returns the one error line; the exit code must be 2. */
  private String badInput(String... options) {
    List<String> args = new ArrayList<>(List.of("ab", "--baseline", "a=" + kernel, "--candidate", "b=" + kernel));
    args.addAll(List.of(options));
    int code = Main.run(new PrintWriter(err, true), args.toArray(String[]::new));
    String text = err.toString().strip();
    assertThat(code).as(text).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(text.lines().count()).as("one line: " + text).isEqualTo(1);
    return text;
  }

  @Test
  void unknownPriorityNamesTheChoices() {
    assertThat(badInput("--priority", "urgent"))
        .isEqualTo("abfleet: --priority urgent: expected pr, adhoc or nightly (highest first; default pr)");
  }

  @Test
  void unknownHypervisorNamesTheChoices() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--hypervisor", "qemu,kvm"))
        .isEqualTo("abfleet: --hypervisor qemu,kvm: unknown hypervisor 'kvm'; expected qemu, vz or sim");
  }

  @Test
  void simMixedWithARealHypervisorIsRejected() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--hypervisor", "sim,qemu"))
        .contains("--hypervisor sim,qemu: sim cannot be mixed with real hypervisors").endsWith("use sim alone");
  }

  @Test
  void unknownClassByDimensionNamesTheChoices() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--class-by", "cpu"))
        .isEqualTo("abfleet: --class-by cpu: unknown dimension 'cpu'; expected cpu_model, arch, host_kernel,"
            + " hypervisor_version (qemu_version) or label:KEY (e.g. label:cpu)");
  }

  @Test
  void classByHypervisorIsRejectedAsAlwaysSeparating() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--class-by", "arch,hypervisor"))
        .contains("'hypervisor' always separates host classes; remove it");
  }

  @Test
  void malformedLabelShowsTheForm() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--label", "rack"))
        .isEqualTo("abfleet: --label 'rack': expected KEY=VALUE, each 1 to 63 of [A-Za-z0-9_./-], e.g. --label rack=a");
  }

  @Test
  void localWorkersWithControllerIsAUsageError() {
    assertThat(badInput("--controller", "127.0.0.1:1", "--local-workers", "2"))
        .isEqualTo("abfleet: --local-workers and --controller both given; a fleet runs on its own workers,"
            + " drop --local-workers");
  }

  @Test
  void malformedControllerAddressShowsTheForm() {
    assertThat(badInput("--controller", "fleet")).contains("--controller 'fleet': expected HOST:PORT");
  }

  @Test
  void simWithoutControllerPointsToAFleet() {
    assertThat(badInput("--hypervisor", "sim")).contains("--hypervisor sim needs --controller HOST:PORT");
  }

  @Test
  void severalHypervisorsWithoutControllerPointsToAFleet() {
    assertThat(badInput("--hypervisor", "qemu,vz"))
        .contains("--hypervisor qemu,vz: a cross-host comparison needs a fleet")
        .contains("add --controller HOST:PORT");
  }

  @Test
  void classByWithoutControllerPointsToAFleet() {
    assertThat(badInput("--class-by", "label:cpu"))
        .contains("--class-by label:cpu: the embedded fleet's local workers are one host class")
        .contains("add --controller HOST:PORT");
  }

  @Test
  void labelWithoutControllerPointsToAFleet() {
    assertThat(badInput("--label", "rack=a")).contains("--label selects fleet hosts").contains("add --controller");
  }

  @Test
  void fleetOptionsGoIntoTheSpec() {
    AbHosts hosts = AbHosts.of("fleet.example:7070", "nightly", List.of("qemu", "vz"), List.of("rack=a"),
        List.of("label:cpu", "arch"), null);
    ExperimentSpec spec = request(hosts).toSpec(List.of());

    assertThat(spec.getSelector().getHypervisorsList()).containsExactly("qemu", "vz");
    assertThat(spec.getSelector().getHypervisor()).isEmpty();
    assertThat(spec.getSelector().getLabelsMap()).containsExactly(java.util.Map.entry("rack", "a"));
    assertThat(spec.getSelector().getHostsList()).isEmpty();
    assertThat(spec.getPolicy().getClassByList()).containsExactly("label:cpu", "arch");
    assertThat(spec.getPriority()).isEqualTo("nightly");
    assertThat(spec.getArms(0).getBoot().getKernel().getUri()).isEqualTo(kernel.toAbsolutePath().normalize().toString());
  }

  @Test
  void embeddedDefaultsAreOneQemuPoolAtPrPriorityOnTheLocalWorkers() {
    ExperimentSpec spec = request(AbHosts.of(null, null, null, null, null, null)).toSpec(List.of("local-w1"));

    assertThat(spec.getSelector().getHypervisor()).isEqualTo("qemu");
    assertThat(spec.getSelector().getHypervisorsList()).isEmpty();
    assertThat(spec.getSelector().getHostsList()).containsExactly("local-w1");
    assertThat(spec.getPolicy().getClassByList()).isEmpty();
    assertThat(spec.getPriority()).isEqualTo("pr");
  }

  @Test
  void simHostsTakePlaceholderKernelsButStillNeedAFile() throws IOException {
    Path placeholder = Path.of(dev.abfleet.worker.sim.SimArtifacts.kernel(dir, "x").getUri());
    AbHosts sim = AbHosts.of("127.0.0.1:1", null, List.of("sim"), null, null, null);
    ArmArg x = new ArmArg("x", placeholder, "");
    assertThat(new AbRequest(x, List.of(new ArmArg("y", placeholder, "")), null, FleetConfigLoader.embeddedDefault(),
        null, null, null, null, null, null, null, null, null, null, sim).toSpec(List.of()).getSelector()
        .getHypervisor()).isEqualTo("sim");
    assertThatThrownBy(() -> new AbRequest(x, List.of(new ArmArg("y", dir.resolve("nope"), "")), null,
        FleetConfigLoader.embeddedDefault(), null, null, null, null, null, null, null, null, null, null, sim))
        .hasMessageContaining("--candidate y: ").hasMessageContaining("sim placeholder kernel");
  }

  @Test
  void helpSaysKernelsAreUploadedAndWhichOptionsNeedAFleet() {
    String help = new picocli.CommandLine(new AbCommand()).getUsageMessage(picocli.CommandLine.Help.Ansi.OFF);
    assertThat(help.replaceAll("\\s+", " "))
        .contains("the kernels are uploaded to its artifact store and the workers stage them by sha256")
        .doesNotContain("same absolute path")
        .contains("Ctrl-C cancels the submitted experiment")
        .contains("--hypervisor=H[,H...]").contains("--class-by=DIM[,DIM...]").contains("--label=KEY=VALUE")
        .contains("--priority=P").contains("needs --controller");
  }

  private AbRequest request(AbHosts hosts) {
    return new AbRequest(new ArmArg("a", kernel, ""), List.of(new ArmArg("b", kernel, "")), null,
        FleetConfigLoader.embeddedDefault(), null, null, null, null, null, null, null, null, null, null, hosts);
  }
}
