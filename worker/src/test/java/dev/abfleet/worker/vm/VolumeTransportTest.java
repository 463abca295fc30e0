package dev.abfleet.worker.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VolumeTransportTest {

  @Test
  void mountsNinePWithTheLinuxVirtioTransportsLargestMsize() {
    assertThat(VolumeTransport.NINE_P.mountOptions("")).isEqualTo("trans=virtio,version=9p2000.L,msize=512000");
  }

  @Test
  void letsTheArmsOptionReplaceADefaultOfTheSameName() {
    assertThat(VolumeTransport.NINE_P.mountOptions("msize=262144,cache=loose"))
        .isEqualTo("trans=virtio,version=9p2000.L,msize=262144,cache=loose");
  }

  @Test
  void rejectsOptionsThatWouldSplitTheKernelCommandLine() {
    assertThatThrownBy(() -> VolumeTransport.VIRTIOFS.mountOptions("rw abfleet.dir=/x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("volume_options 'rw abfleet.dir=/x'");
  }
}
