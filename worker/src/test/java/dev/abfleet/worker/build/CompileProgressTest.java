package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompileProgressTest {

  @Test
  void countsCcLinesIncludingModulesAndNothingElse() {
    CompileProgress p = new CompileProgress();

    int n = p.feed("  HOSTCC  scripts/basic/fixdep\n  CC      init/main.o\n  AS      arch/x86/entry/entry_64.o\n"
        + "  CC [M]  fs/fuse/virtio_fs.o\n  LD      vmlinux\n");

    assertThat(n).isEqualTo(2);
  }

  @Test
  void countsALineSplitAcrossChunksOnce() {
    CompileProgress p = new CompileProgress();

    assertThat(p.feed("  CC      init/ma")).isZero();
    assertThat(p.feed("in.o\n  CC")).isEqualTo(1);
    assertThat(p.feed("      fs/stat.o\n")).isEqualTo(2);
  }
}
