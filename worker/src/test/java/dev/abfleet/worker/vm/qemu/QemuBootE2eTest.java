package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.TestGuests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Boots the real Debian cloud kernel in QEMU on this host (TCG where KVM cannot run guests). */
@Tag("e2e")
class QemuBootE2eTest {

  static Path kernel;

  @TempDir
  Path dir;

  @BeforeAll
  static void fetchKernel() throws Exception {
    kernel = TestKernels.cloudKernel();
  }

  private static final String MOUNT_DEV = "/bin/busybox mount -t devtmpfs dev /dev\n";

  @Test
  void bootsCloudKernelAndReadsResultsFromSecondSerialPort() throws Exception {
    Path initrd = TestGuests.busyboxInitramfs(dir, MOUNT_DEV
        + "echo '{\"metric\":\"e2e\",\"value\":1.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}' > "
        + QemuArgs.resultsDevice("x86_64") + "\n"
        + "/bin/busybox poweroff -f\n");
    QemuDriver driver = QemuDriver.forThisHost(dir.resolve("scratch"));

    BootOutcome o = driver.boot(new BootRequest("e2e-ok", "x86_64", kernel, initrd, "",
        List.of("abfleet.iterations=1"), 1, 512, Duration.ofSeconds(90), dir.resolve("boot")));

    System.out.printf("boot: accel=%s exit=%d wall=%d ms version=%s probe=%s%n", o.accelerator(), o.exitCode(),
        o.wall().toMillis(), driver.version(), driver.accelProbe());
    assertThat(o.launchError()).isNull();
    assertThat(o.timedOut()).isFalse();
    assertThat(o.exitCode()).isZero();
    assertThat(o.accelerator()).isEqualTo(driver.accelerators().get(0));
    assertThat(Files.readAllLines(o.resultsLog()))
        .containsExactly("{\"metric\":\"e2e\",\"value\":1.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}");
    assertThat(Files.readString(o.consoleLog())).doesNotContain("\"metric\"");
    assertThat(o.wall()).isLessThan(Duration.ofSeconds(60));
  }

  /**
   * One vCPU pinned under TCG: the worker pins QEMU's vCPU thread while the VM is paused, the
   * guest then runs and reports, and the CPU recorded is the one the kernel holds the thread to.
   * With two or more CPUs the lowest is left free, so the vCPU lands on the second.
   */
  @Test
  void pinsTheVcpuThreadOfARealGuestAndRecordsTheHostCpu() throws Exception {
    List<Integer> own = CpuList.parse(VcpuPinner.ownCpus()).orElseThrow();
    Path initrd = TestGuests.busyboxInitramfs(dir, MOUNT_DEV
        + "echo '{\"metric\":\"e2e\",\"value\":1.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}' > "
        + QemuArgs.resultsDevice("x86_64") + "\n"
        + "/bin/busybox poweroff -f\n");

    BootOutcome o = QemuDriver.forThisHost(dir.resolve("scratch")).boot(new BootRequest("e2e-pin", "x86_64",
        kernel, initrd, "", List.of(), 1, 512, Duration.ofSeconds(90), dir.resolve("boot"), null, true));

    System.out.printf("pinned boot: exit=%d wall=%d ms vcpu host cpus=%s (cpuset %s)%n", o.exitCode(),
        o.wall().toMillis(), o.vcpuHostCpus(), CpuList.format(own));
    assertThat(o.launchError()).isNull();
    assertThat(o.exitCode()).isZero();
    assertThat(o.vcpuHostCpus()).containsExactly(own.size() > 1 ? own.get(1) : own.get(0));
    assertThat(Files.readAllLines(o.resultsLog())).hasSize(1);
    assertThat(Files.readAllLines(dir.resolve("boot/taskset-vcpu0-read.stdout")))
        .last().asString().endsWith(": " + o.vcpuHostCpus().get(0));
  }

  @Test
  void consoleCarriesKernelMessagesWhenNotQuiet() throws Exception {
    Path initrd = TestGuests.busyboxInitramfs(dir, MOUNT_DEV + "/bin/busybox poweroff -f\n");

    BootOutcome o = QemuDriver.forThisHost(dir.resolve("scratch")).boot(new BootRequest("e2e-console", "x86_64",
        kernel, initrd, "loglevel=7", List.of(), 1, 512, Duration.ofSeconds(90), dir.resolve("boot")));

    System.out.printf("console boot: exit=%d wall=%d ms%n", o.exitCode(), o.wall().toMillis());
    assertThat(o.exitCode()).isZero();
    assertThat(Files.readString(o.consoleLog())).contains("Linux version 6.1.0-50-cloud-amd64");
    assertThat(o.consoleTail()).contains("reboot: Power down");
  }

  @Test
  void killsHungGuestAtTimeout() throws Exception {
    Path initrd = TestGuests.busyboxInitramfs(dir, "while true; do /bin/busybox sleep 1000; done\n");
    Duration timeout = Duration.ofSeconds(12);

    BootOutcome o = QemuDriver.forThisHost(dir.resolve("scratch")).boot(new BootRequest("e2e-hang", "x86_64",
        kernel, initrd, "", List.of(), 1, 512, timeout, dir.resolve("boot")));

    System.out.printf("hang boot: timedOut=%s exit=%d wall=%d ms%n", o.timedOut(), o.exitCode(), o.wall().toMillis());
    assertThat(o.timedOut()).isTrue();
    assertThat(o.exitCode()).isEqualTo(-1);
    assertThat(o.wall()).isBetween(timeout, timeout.plusSeconds(4));
    assertThat(ProcessHandle.current().descendants().filter(h -> h.info().command().orElse("").contains("qemu-system")))
        .isEmpty();
  }
}
