package dev.abfleet.worker.vm.vz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class VfkitArgsTest {

  private static VfkitLaunch launch(int vsockPort, Path share, String extra) {
    return new VfkitLaunch("vfkit", 2, 1024, Path.of("/k/Image"), Path.of("/k/initrd.gz"),
        List.of("abfleet.iterations=5"), extra, Path.of("/w/console.log"), share, "abfleet",
        vsockPort, Path.of("/w/vsock-1024.sock"));
  }

  @Test
  void buildsLinuxBootWithConsoleShareAndRng() {
    assertThat(VfkitArgs.build(launch(0, Path.of("/w/share"), "slub_debug=FZPU"))).containsExactly(
        "vfkit", "--cpus", "2", "--memory", "1024", "--restful-uri", "none://",
        "--bootloader", "linux,kernel=/k/Image,initrd=/k/initrd.gz,cmdline=\"console=hvc0 quiet panic=-1"
            + " abfleet.share=abfleet abfleet.out=/mnt/abfleet/results.jsonl abfleet.iterations=5 slub_debug=FZPU\"",
        "--device", "virtio-serial,logFilePath=/w/console.log",
        "--device", "virtio-fs,sharedDir=/w/share,mountTag=abfleet",
        "--device", "virtio-rng");
  }

  @Test
  void addsListeningVsockWhenPortGiven() {
    assertThat(VfkitArgs.build(launch(1024, Path.of("/w/share"), "")))
        .containsSequence("--device", "virtio-vsock,port=1024,socketURL=/w/vsock-1024.sock,listen",
            "--device", "virtio-rng");
  }

  @Test
  void tellsHarnessToWriteResultsOnTheShare() {
    assertThat(VfkitArgs.resultsPathInGuest("abfleet")).isEqualTo("/mnt/abfleet/results.jsonl");
  }

  @Test
  void rejectsCommaInPathsBecauseVfkitCannotEscapeIt() {
    assertThatThrownBy(() -> VfkitArgs.build(launch(0, Path.of("/w/a,b"), "")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'/w/a,b'");
  }

  @Test
  void rejectsDoubleQuoteInCmdline() {
    assertThatThrownBy(() -> VfkitArgs.build(launch(0, Path.of("/w/share"), "init=\"/bin/sh\"")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("init=\"/bin/sh\"");
  }

  @Test
  void rejectsZeroVcpus() {
    assertThatThrownBy(() -> VfkitArgs.build(new VfkitLaunch("vfkit", 0, 1024, Path.of("/k/Image"),
        Path.of("/k/initrd.gz"), List.of(), "", Path.of("/w/c.log"), Path.of("/w/share"), "abfleet", 0, null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
  }

  @Test
  void sharesTheHostVolumeAsASecondVirtioFsDevice() {
    VfkitLaunch l = launch(0, Path.of("/w/share"), "");
    VfkitLaunch withVolume = new VfkitLaunch(l.binary(), l.vcpus(), l.memoryMib(), l.kernel(), l.initrd(),
        l.guestParams(), l.cmdlineExtra(), l.consoleLog(), l.sharedDir(), l.mountTag(), 0, null,
        Path.of("/Users/a/volumes/r1-e2"));

    assertThat(VfkitArgs.build(withVolume)).containsSequence(
        "--device", "virtio-fs,sharedDir=/w/share,mountTag=abfleet",
        "--device", "virtio-fs,sharedDir=/Users/a/volumes/r1-e2,mountTag=abfleet-vol");
  }

  @Test
  void rejectsAResultsShareTaggedLikeTheVolume() {
    VfkitLaunch l = launch(0, Path.of("/w/share"), "");

    assertThatThrownBy(() -> VfkitArgs.build(new VfkitLaunch(l.binary(), l.vcpus(), l.memoryMib(), l.kernel(),
        l.initrd(), l.guestParams(), l.cmdlineExtra(), l.consoleLog(), l.sharedDir(), "abfleet-vol", 0, null,
        Path.of("/Users/a/volumes/r1-e2"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'abfleet-vol' is the volume's tag");
  }
}
