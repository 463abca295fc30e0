package dev.abfleet.cli.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.FakeKernels;
import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code calibrate --real} rejects what it cannot run before any fleet starts or kernel downloads. */
class CalibrateRealOptionsTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  @Test
  void onePairIsTooFewForThePairedSpread() {
    assertThat(run("calibrate", "--real", "--pairs", "1")).isEqualTo(2);
    assertThat(err.toString()).contains("--pairs 1").contains("from 2 to 10000");
  }

  @Test
  void severalPairCountsAreForTheSimulationOnly() {
    assertThat(run("calibrate", "--real", "--pairs", "4,8")).isEqualTo(2);
    assertThat(err.toString()).contains("--pairs [4, 8]").contains("give one pair count");
  }

  @Test
  void aRealOnlyOptionWithoutRealSaysToAddIt() {
    assertThat(run("calibrate", "--kernel", "/boot/vmlinuz")).isEqualTo(2);
    assertThat(err.toString()).contains("--kernel is an option of calibrate --real").contains("add --real");
  }

  @Test
  void zeroExperimentsIsRejected() {
    assertThat(run("calibrate", "--real", "--experiments", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--experiments 0").contains("1 to 1000");
  }

  @Test
  void anUnreadableNoiseRecordStopsTheRunBeforeAnyBoot() throws Exception {
    Path noise = Files.createDirectories(home.path().resolve("noise"));
    Files.writeString(noise.resolve("qemu_tcg.json"), "not json");
    assertThat(run("calibrate", "--real", "--kernel", FakeKernels.bzImage(dir).toString())).isEqualTo(2);
    assertThat(err.toString()).contains(noise.resolve("qemu_tcg.json").toString())
        .contains("delete it and re-run abfleet calibrate --real");
    assertThat(Files.list(home.path()).map(p -> p.getFileName().toString())).containsExactly("noise");
  }

  @Test
  void simHostsWithoutAControllerSayToStartASimFleet() throws Exception {
    assertThat(run("calibrate", "--real", "--hypervisor", "sim")).isEqualTo(2);
    assertThat(err.toString()).contains("--hypervisor sim needs --controller HOST:PORT")
        .contains("abfleet sim-fleet --workers N --controller HOST:PORT");
    assertThat(Files.list(home.path())).isEmpty();
  }

  @Test
  void anUnknownHypervisorIsRejectedBeforeAnyDownload() throws Exception {
    assertThat(run("calibrate", "--real", "--hypervisor", "kvm")).isEqualTo(2);
    assertThat(err.toString()).contains("--hypervisor kvm: unknown hypervisor 'kvm'; expected qemu, vz or sim");
    assertThat(Files.list(home.path())).isEmpty();
  }

  @Test
  void hypervisorWithoutRealSaysToAddIt() {
    assertThat(run("calibrate", "--hypervisor", "sim")).isEqualTo(2);
    assertThat(err.toString()).contains("--hypervisor is an option of calibrate --real");
  }
}
