package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class QemuArgsTest {

  private static QemuLaunch launch(String arch, String accel) {
    return new QemuLaunch("qemu-system-" + arch, accel, arch, "r1", Path.of("/k/vmlinuz"), Path.of("/k/initrd.gz"),
        2, 512, List.of("abfleet.iterations=5"), "slub_debug=FZPU", Path.of("/w/console.log"),
        Path.of("/w/results.log"), null);
  }

  @Test
  void x86TcgPutsResultsOnSecondSerialPort() {
    assertThat(QemuArgs.build(launch("x86_64", "tcg"))).containsExactly(
        "qemu-system-x86_64", "-name", "abfleet-r1", "-accel", "tcg", "-m", "512", "-smp", "2",
        "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
        "-kernel", "/k/vmlinuz", "-initrd", "/k/initrd.gz",
        "-append", "console=ttyS0 quiet panic=-1 abfleet.iterations=5 slub_debug=FZPU",
        "-chardev", "file,id=con,path=/w/console.log", "-serial", "chardev:con",
        "-chardev", "file,id=res,path=/w/results.log", "-serial", "chardev:res");
  }

  @Test
  void x86KvmUsesHostCpu() {
    assertThat(QemuArgs.build(launch("x86_64", "kvm"))).containsSequence("-accel", "kvm", "-cpu", "host", "-m", "512");
  }

  @Test
  void aarch64TcgUsesVirtMachineAndVirtioConsoleForResults() {
    assertThat(QemuArgs.build(launch("aarch64", "tcg"))).containsExactly(
        "qemu-system-aarch64", "-name", "abfleet-r1", "-M", "virt", "-accel", "tcg", "-cpu", "max",
        "-m", "512", "-smp", "2",
        "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
        "-kernel", "/k/vmlinuz", "-initrd", "/k/initrd.gz",
        "-append", "console=ttyAMA0 quiet panic=-1 abfleet.out=/dev/hvc0 abfleet.iterations=5 slub_debug=FZPU",
        "-chardev", "file,id=con,path=/w/console.log", "-serial", "chardev:con",
        "-device", "virtio-serial-device",
        "-chardev", "file,id=res,path=/w/results.log",
        "-device", "virtconsole,chardev=res");
  }

  @Test
  void aarch64KvmUsesHostCpu() {
    assertThat(QemuArgs.build(launch("aarch64", "kvm")))
        .containsSequence("-M", "virt", "-accel", "kvm", "-cpu", "host", "-m")
        .doesNotContain("max");
  }

  private static QemuLaunch pinned(QemuLaunch l) {
    return new QemuLaunch(l.binary(), l.accelerator(), l.arch(), l.runId(), l.kernel(), l.initrd(),
        l.vcpus(), l.memoryMib(), l.guestParams(), l.cmdlineExtra(), l.consoleLog(), l.resultsLog(),
        Path.of("/w/qmp.sock"));
  }

  @Test
  void pinnedVmStartsPausedWithAQmpSocket() {
    List<String> argv = QemuArgs.build(pinned(launch("x86_64", "tcg")));

    assertThat(argv.subList(argv.size() - 3, argv.size()))
        .containsExactly("-qmp", "unix:/w/qmp.sock,server=on,wait=off", "-S");
  }

  @Test
  void pinnedVmOnTcgRunsAThreadPerVcpu() {
    assertThat(QemuArgs.build(pinned(launch("x86_64", "tcg")))).containsSequence("-accel", "tcg,thread=multi");
    assertThat(QemuArgs.build(pinned(launch("x86_64", "kvm")))).containsSequence("-accel", "kvm", "-cpu", "host");
  }

  @Test
  void unpinnedVmRunsAtOnce() {
    assertThat(QemuArgs.build(launch("x86_64", "tcg"))).doesNotContain("-S", "-qmp");
  }

  @Test
  void doublesCommasInChardevPaths() {
    QemuLaunch l = launch("x86_64", "tcg");
    QemuLaunch odd = new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(), 1, 512, List.of(), "",
        Path.of("/w/a,b/console.log"), Path.of("/w/a,b/results.log"), null);

    assertThat(QemuArgs.build(odd))
        .contains("file,id=con,path=/w/a,,b/console.log", "file,id=res,path=/w/a,,b/results.log");
  }

  @Test
  void omitsEmptyUserExtra() {
    assertThat(QemuArgs.appendLine("x86_64", List.of(), "  ")).isEqualTo("console=ttyS0 quiet panic=-1");
  }

  @Test
  void namesResultsDevicePerArch() {
    assertThat(QemuArgs.resultsDevice("x86_64")).isEqualTo("/dev/ttyS1");
    assertThat(QemuArgs.resultsDevice("aarch64")).isEqualTo("/dev/hvc0");
  }

  @Test
  void rejectsZeroVcpus() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(),
        0, 512, List.of(), "", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
  }

  @Test
  void rejectsMemoryBelow64Mib() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(),
        1, 63, List.of(), "", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 63");
  }

  @Test
  void rejectsNewlineInUserExtra() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(),
        1, 512, List.of(), "quiet\ninit=/bin/sh", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quiet\\ninit=/bin/sh");
  }

  @Test
  void rejectsNulInUserExtra() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(),
        1, 512, List.of(), "a\0b", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a\\0b");
  }

  @Test
  void rejectsGuestParamWithSpace() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1", l.kernel(), l.initrd(),
        1, 512, List.of("abfleet.x=1 init=/bin/sh"), "", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("abfleet.x=1 init=/bin/sh");
  }

  @Test
  void rejectsRunIdThatWouldInjectQemuOptions() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "x86_64", "r1,debug-threads=on",
        l.kernel(), l.initrd(), 1, 512, List.of(), "", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("r1,debug-threads=on");
  }

  @Test
  void rejectsUnknownArch() {
    QemuLaunch l = launch("x86_64", "tcg");
    assertThatThrownBy(() -> QemuArgs.build(new QemuLaunch(l.binary(), "tcg", "riscv64", "r1",
        l.kernel(), l.initrd(), 1, 512, List.of(), "", l.consoleLog(), l.resultsLog(), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'riscv64'");
  }

  @Test
  void rejectsUnknownAccelerator() {
    assertThatThrownBy(() -> QemuArgs.build(launch("x86_64", "hvf")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'hvf'");
  }
}
