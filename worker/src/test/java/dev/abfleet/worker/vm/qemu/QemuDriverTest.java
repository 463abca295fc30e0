package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.EndMarker;
import dev.abfleet.worker.process.OutputCap;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.GuestOutputCaps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QemuDriverTest {

  @TempDir
  Path dir;

  private Path bzImage;
  private Path armImage;
  private Path initrd;
  private final List<List<String>> started = new ArrayList<>();
  private final AtomicInteger probes = new AtomicInteger();

  private static final Function<String, Optional<Path>> QEMU_INSTALLED = name -> Optional.of(Path.of("/usr/bin", name));
  private static final Function<String, Optional<Path>> NOTHING_INSTALLED = name -> Optional.empty();

  @BeforeEach
  void kernels() throws IOException {
    bzImage = TestKernels.bzImage(dir.resolve("vmlinuz"));
    armImage = TestKernels.arm64Image(dir.resolve("Image"));
    initrd = Files.write(dir.resolve("initrd.gz"), new byte[] {1, 2, 3});
  }

  /** A QEMU that powers the guest off at once after printing a console line. */
  private CommandRunner poweringOff() {
    return (argv, workDir, logName, timeout) -> {
      started.add(argv);
      try {
        Files.writeString(workDir.resolve("console.log"), "\u001B[2J[    1.0] Run /init as init process\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new RunResult(0, false, false, Duration.ofMillis(6500), null, null, "", "", null);
    };
  }

  private Function<String, AccelProbe> probeFinding(List<String> working) {
    return binary -> {
      probes.incrementAndGet();
      return new AccelProbe(working, working.contains("kvm") ? Map.of() : Map.of("kvm", "hangs"));
    };
  }

  private BootRequest request(String arch, Path kernel) {
    return new BootRequest("run-1", arch, kernel, initrd, "", List.of("abfleet.iterations=3"), 1, 512,
        Duration.ofSeconds(60), dir.resolve("boot"));
  }

  @Test
  void reportsMissingQemuWithInstallCommand() throws Exception {
    QemuDriver d = new QemuDriver(poweringOff(), NOTHING_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(o.launchError()).isEqualTo("qemu-system-x86_64 not found: apt-get install qemu-system-x86");
    assertThat(started).isEmpty();
  }

  @Test
  void offersNoAcceleratorWhenQemuMissing() {
    QemuDriver d = new QemuDriver(poweringOff(), NOTHING_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    assertThat(d.accelerators()).isEmpty();
    assertThat(d.accelProbe().reasons().get("tcg")).contains("apt-get install qemu-system-x86");
  }

  @Test
  void bootsOnBestProbedAcceleratorAndRecordsIt() throws Exception {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(o.accelerator()).isEqualTo("tcg");
    assertThat(started.get(0)).containsSequence("-accel", "tcg")
        .contains("console=ttyS0 quiet panic=-1 abfleet.iterations=3");
    assertThat(o.cleanExit()).isTrue();
    assertThat(o.consoleTail()).isEqualTo("[    1.0] Run /init as init process");
    assertThat(o.resultsLog()).isEqualTo(dir.resolve("boot/results.log"));
  }

  @Test
  void probesAcceleratorsOnlyOnce() throws Exception {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("kvm", "tcg")), "x86_64", dir);

    d.boot(request("x86_64", bzImage));
    d.boot(request("x86_64", bzImage));
    d.accelerators();

    assertThat(probes).hasValue(1);
    assertThat(started.get(1)).containsSequence("-accel", "kvm", "-cpu", "host");
  }

  @Test
  void runsForeignArchGuestsOnTcgEvenWhenKvmWorks() throws Exception {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("kvm", "tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("aarch64", armImage));

    assertThat(o.accelerator()).isEqualTo("tcg");
    assertThat(started.get(0).get(0)).isEqualTo("/usr/bin/qemu-system-aarch64");
  }

  @Test
  void rejectsKernelOfAnotherArchBeforeStarting() throws Exception {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", armImage));

    assertThat(o.launchError()).contains("is an aarch64 image but the boot asks for arch x86_64");
    assertThat(started).isEmpty();
  }

  @Test
  void reportsQemuOwnErrorAsLaunchError() throws Exception {
    CommandRunner failing = (argv, workDir, logName, timeout) -> new RunResult(1, false, false, Duration.ofMillis(40),
        null, null, "", "qemu-system-x86_64: -smp 1: Invalid CPU topology", null);
    QemuDriver d = new QemuDriver(failing, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(o.launchError()).contains("failed before the guest started (exit 1)", "Invalid CPU topology");
  }

  @Test
  void keepsTimeoutAsOutcomeNotLaunchError() throws Exception {
    CommandRunner hanging = (argv, workDir, logName, timeout) -> new RunResult(-1, true, false, timeout,
        null, null, "", "", null);
    QemuDriver d = new QemuDriver(hanging, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(o.timedOut()).isTrue();
    assertThat(o.exitCode()).isEqualTo(-1);
    assertThat(o.launchError()).isNull();
  }

  @Test
  void killsAVmWhoseConsoleOrResultsGrowPastTheirCaps() throws Exception {
    List<List<OutputCap>> watched = new ArrayList<>();
    String flood = "results.log grew to 2000000 bytes, past its cap of 1048576 bytes";
    CommandRunner flooding = new CommandRunner() {
      @Override
      public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
        throw new AssertionError("a boot must be run with its output caps");
      }

      @Override
      public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps) {
        watched.add(caps);
        return new RunResult(-1, false, false, Duration.ofSeconds(2), null, null, "", "", null, flood);
      }
    };
    QemuDriver d = new QemuDriver(flooding, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(watched).singleElement().asList().containsExactlyInAnyOrder(
        new OutputCap(dir.resolve("boot/results.log"), GuestOutputCaps.RESULTS_BYTES),
        new OutputCap(dir.resolve("boot/console.log"), GuestOutputCaps.CONSOLE_BYTES));
    assertThat(o.overCap()).isEqualTo(flood);
    assertThat(o.launchError()).isNull();
  }

  @Test
  void keepsTheResultsOfAGuestThatHaltsInsteadOfPoweringOff() throws Exception {
    // A kernel without ACPI: the harness wrote its done line, the VM only halted and was stopped.
    List<EndMarker> ends = new ArrayList<>();
    CommandRunner halting = new CommandRunner() {
      @Override
      public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
        throw new AssertionError("a boot must be run with its end marker");
      }

      @Override
      public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps,
          EndMarker end) {
        ends.add(end);
        return new RunResult(-1, false, false, Duration.ofSeconds(9), null, null, "", "", null, null, true);
      }
    };
    QemuDriver d = new QemuDriver(halting, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    BootOutcome o = d.boot(request("x86_64", bzImage));

    assertThat(ends).singleElement().isEqualTo(GuestOutputCaps.endOf(dir.resolve("boot/results.log")));
    assertThat(o.timedOut()).isFalse();
    assertThat(o.launchError()).isNull();
  }

  @Test
  void throwsInterruptedExceptionWhenBootInterrupted() {
    CommandRunner interrupted = (argv, workDir, logName, timeout) -> {
      Thread.currentThread().interrupt();
      return new RunResult(-1, false, true, Duration.ofSeconds(1), null, null, "", "", null);
    };
    QemuDriver d = new QemuDriver(interrupted, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    assertThatThrownBy(() -> d.boot(request("x86_64", bzImage))).isInstanceOf(InterruptedException.class);
  }

  @Test
  void recordsFirstLineOfVersionOutput() {
    String output = "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright (c) 2003-2022";
    CommandRunner version = (argv, workDir, logName, timeout) -> new RunResult(0, false, false, Duration.ofMillis(20),
        null, null, output, "", null);
    QemuDriver d = new QemuDriver(version, QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    assertThat(d.version()).isEqualTo("QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)");
  }

  @Test
  void offersTheGuestArchesWhoseQemuIsInstalled() {
    Function<String, Optional<Path>> x86Only =
        name -> name.equals("qemu-system-x86_64") ? Optional.of(Path.of("/usr/bin", name)) : Optional.empty();

    assertThat(new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir).guestArches())
        .containsExactly("x86_64", "aarch64");
    assertThat(new QemuDriver(poweringOff(), x86Only, probeFinding(List.of("kvm", "tcg")), "x86_64", dir).guestArches())
        .containsExactly("x86_64");
  }

  @Test
  void offersNoGuestArchWhenQemuRunsNoGuests() {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of()), "x86_64", dir);

    assertThat(d.guestArches()).isEmpty();
  }

  @Test
  void asksForTheVirtioConsoleModulesOfArm64GuestsOnly() {
    QemuDriver d = new QemuDriver(poweringOff(), QEMU_INSTALLED, probeFinding(List.of("tcg")), "x86_64", dir);

    assertThat(d.guestModules("aarch64")).containsExactly("virtio_mmio", "virtio_console");
    assertThat(d.guestModules("x86_64")).isEmpty();
  }
}
