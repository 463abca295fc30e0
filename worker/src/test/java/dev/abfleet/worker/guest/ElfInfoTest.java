package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ElfInfoTest {

  @Test
  void seesAStaticX86Executable() {
    assertThat(ElfInfo.read(TestElf.of(ElfInfo.X86_64, false)))
        .contains(new ElfInfo(ElfInfo.X86_64, true));
  }

  @Test
  void seesAnInterpreterAsDynamicLinking() {
    assertThat(ElfInfo.read(TestElf.of(ElfInfo.AARCH64, true)))
        .contains(new ElfInfo(ElfInfo.AARCH64, false));
  }

  @Test
  void rejectsAShellScript() {
    assertThat(ElfInfo.read("#!/bin/sh\necho hello world, this is not an ELF file at all\n".getBytes()))
        .isEmpty();
  }

  @Test
  void rejectsProgramHeadersPastTheEndOfTheFile() {
    byte[] truncated = java.util.Arrays.copyOf(TestElf.staticX86(), 100);

    assertThat(ElfInfo.read(truncated)).isEmpty();
  }

  @Test
  void readsTheMachineFromTheFirstBytesAlone() {
    byte[] head = java.util.Arrays.copyOf(TestElf.of(ElfInfo.AARCH64, false), 20);

    assertThat(ElfInfo.machineOf(head)).contains(ElfInfo.AARCH64);
    assertThat(ElfInfo.machineOf("#!/bin/sh\necho not an ELF file".getBytes())).isEmpty();
  }
}
