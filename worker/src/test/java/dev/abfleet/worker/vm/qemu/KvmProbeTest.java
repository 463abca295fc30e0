package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvmProbeTest {

  @TempDir
  Path dir;

  /** Answers per accelerator and records which accelerators were started. */
  private static final class FakeQemu implements CommandRunner {
    final Map<String, RunResult> byAccel;
    final List<String> started = new ArrayList<>();

    FakeQemu(Map<String, RunResult> byAccel) {
      this.byAccel = byAccel;
    }

    @Override
    public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
      String accel = argv.get(argv.indexOf("-accel") + 1);
      started.add(accel);
      return byAccel.get(accel);
    }
  }

  private static RunResult exited(int code) {
    return new RunResult(code, false, false, Duration.ofMillis(80), null, null, "", "", null);
  }

  private static RunResult hung() {
    return new RunResult(-1, true, false, Duration.ofSeconds(5), null, null, "", "", null);
  }

  private Path fakeDevKvm() throws Exception {
    return Files.createFile(dir.resolve("kvm"));
  }

  @Test
  void fallsBackToTcgWhenKvmUnusable() throws Exception {
    FakeQemu qemu = new FakeQemu(Map.of("kvm", hung(), "tcg", exited(133)));

    AccelProbe p = new KvmProbe("qemu-system-x86_64", fakeDevKvm(), qemu, Duration.ofSeconds(5)).probe(dir);

    assertThat(p.working()).containsExactly("tcg");
    assertThat(p.reasons().get("kvm")).contains("did not finish within 5000 ms", "does not run guests");
  }

  @Test
  void prefersKvmWhenItRunsTheProbeGuest() throws Exception {
    FakeQemu qemu = new FakeQemu(Map.of("kvm", exited(133), "tcg", exited(133)));

    AccelProbe p = new KvmProbe("qemu-system-x86_64", fakeDevKvm(), qemu, Duration.ofSeconds(5)).probe(dir);

    assertThat(p.working()).containsExactly("kvm", "tcg");
    assertThat(p.best()).isEqualTo("kvm");
    assertThat(p.reasons()).isEmpty();
  }

  @Test
  void skipsKvmWithoutStartingQemuWhenDeviceMissing() {
    FakeQemu qemu = new FakeQemu(Map.of("tcg", exited(133)));

    AccelProbe p = new KvmProbe("qemu-system-x86_64", dir.resolve("no-kvm"), qemu, Duration.ofSeconds(5)).probe(dir);

    assertThat(qemu.started).containsExactly("tcg");
    assertThat(p.working()).containsExactly("tcg");
    assertThat(p.reasons().get("kvm")).contains("no-kvm is missing");
  }

  @Test
  void rejectsAcceleratorWhoseGuestExitsWithAnotherStatus() throws Exception {
    FakeQemu qemu = new FakeQemu(Map.of("kvm", new RunResult(1, false, false, Duration.ofMillis(30), null, null, "",
        "qemu-system-x86_64: failed to initialize kvm: Permission denied", null), "tcg", exited(133)));

    AccelProbe p = new KvmProbe("qemu-system-x86_64", fakeDevKvm(), qemu, Duration.ofSeconds(5)).probe(dir);

    assertThat(p.working()).containsExactly("tcg");
    assertThat(p.reasons().get("kvm")).contains("exited with 1 instead of 133", "Permission denied");
  }

  @Test
  void findsNothingWhenQemuCannotStart() throws Exception {
    RunResult missing = new RunResult(-1, false, false, Duration.ZERO, null, null, "", "",
        "cannot start qemu-system-x86_64: No such file or directory");
    FakeQemu qemu = new FakeQemu(Map.of("kvm", missing, "tcg", missing));

    AccelProbe p = new KvmProbe("qemu-system-x86_64", fakeDevKvm(), qemu, Duration.ofSeconds(5)).probe(dir);

    assertThat(p.working()).isEmpty();
    assertThat(p.reasons().get("tcg")).contains("No such file");
  }

  @Test
  void probeImageJumpsFromResetVectorIntoProtectedModeCode() {
    byte[] img = ProbeImage.bytes();

    assertThat(img).hasSize(65536);
    assertThat(new byte[] {img[0xFFF0], img[0xFFF1], img[0xFFF2]}).containsExactly(0xE9, 0x0D, 0x00);
    assertThat(img[0]).isEqualTo((byte) 0xFA);
    assertThat(new byte[] {img[0x20], img[0x21]}).containsExactly(0xE6, 0xF4); // out 0xf4, al
  }

  /** Real QEMU: TCG must run the probe guest; KVM is whatever this host offers (logged, not asserted). */
  @Test
  void tcgRunsTheProbeGuestInRealQemu() {
    long start = System.nanoTime();
    AccelProbe p = new KvmProbe("qemu-system-x86_64", Path.of("/dev/kvm"), new ProcessRunner(Duration.ofSeconds(1)),
        Duration.ofSeconds(5)).probe(dir);
    long ms = (System.nanoTime() - start) / 1_000_000;

    System.out.printf("real probe: working=%s reasons=%s in %d ms%n", p.working(), p.reasons(), ms);
    assertThat(p.working()).contains("tcg");
    assertThat(p.working().get(p.working().size() - 1)).isEqualTo("tcg");
  }
}
