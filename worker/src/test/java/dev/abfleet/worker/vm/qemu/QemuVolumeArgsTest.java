package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host-volume devices QemuArgs adds. */
class QemuVolumeArgsTest {

  private static QemuLaunch launch(QemuLaunch.Volume volume) {
    return new QemuLaunch("qemu-system-x86_64", "tcg", "x86_64", "r1", Path.of("/k/vmlinuz"),
        Path.of("/k/initrd.gz"), 1, 768, List.of(), "", Path.of("/w/console.log"), Path.of("/w/results.log"), null,
        volume);
  }

  @Test
  void sharesANinePDirectoryServedByQemuUnderTheVolumeTag() {
    var share = new VolumeShare(VolumeTransport.NINE_P, Path.of("/home/a/volumes/r1-e2"), VolumeTransport.TAG);

    assertThat(QemuArgs.build(launch(new QemuLaunch.Volume(share, null)))).endsWith(
        "-fsdev", "local,id=vol,path=/home/a/volumes/r1-e2,security_model=none",
        "-device", "virtio-9p-pci,fsdev=vol,mount_tag=abfleet-vol");
  }

  @Test
  void backsVirtiofsGuestsWithSharedMemoryOfTheirSizeAndVirtiofsdsSocket() {
    var share = new VolumeShare(VolumeTransport.VIRTIOFS, Path.of("/home/a/volumes/r1-e2"), VolumeTransport.TAG);

    assertThat(QemuArgs.build(launch(new QemuLaunch.Volume(share, Path.of("/tmp/abfleet-vfs-1/vfs.sock"))))).endsWith(
        "-object", "memory-backend-memfd,id=mem,size=768M,share=on",
        "-numa", "node,memdev=mem",
        "-chardev", "socket,id=vol,path=/tmp/abfleet-vfs-1/vfs.sock",
        "-device", "vhost-user-fs-pci,chardev=vol,tag=abfleet-vol");
  }

  @Test
  void doublesCommasInTheSharedPathAsQemuOptionsRequire() {
    var share = new VolumeShare(VolumeTransport.NINE_P, Path.of("/v/a,b"), VolumeTransport.TAG);

    assertThat(QemuArgs.build(launch(new QemuLaunch.Volume(share, null))))
        .contains("local,id=vol,path=/v/a,,b,security_model=none");
  }

  @Test
  void rejectsAVirtiofsVolumeWithoutASocket() {
    var share = new VolumeShare(VolumeTransport.VIRTIOFS, Path.of("/v"), VolumeTransport.TAG);

    assertThatThrownBy(() -> QemuArgs.build(launch(new QemuLaunch.Volume(share, null))))
        .hasMessageContaining("virtiofsd's socket");
  }

  @Test
  void rejectsATagTheGuestCouldNotMount() {
    var share = new VolumeShare(VolumeTransport.NINE_P, Path.of("/v"), "a tag,with=comma");

    assertThatThrownBy(() -> QemuArgs.build(launch(new QemuLaunch.Volume(share, null))))
        .hasMessageContaining("mount tag 'a tag,with=comma'");
  }
}
