package dev.abfleet.worker.guest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Minimal ELF64 little-endian images: a header and two program headers, nothing else (e_machine 62 = x86_64, 183 = aarch64). */
public final class TestElf {

  private TestElf() {}

  public static byte[] of(int machine, boolean dynamic) {
    ByteBuffer b = ByteBuffer.allocate(64 + 2 * 56).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
    b.putShort(16, (short) 2); // ET_EXEC
    b.putShort(18, (short) machine);
    b.putLong(0x20, 64); // e_phoff
    b.putShort(0x36, (short) 56); // e_phentsize
    b.putShort(0x38, (short) 2); // e_phnum
    b.putInt(64, 1); // PT_LOAD
    b.putInt(64 + 56, dynamic ? 3 : 1); // PT_INTERP or another PT_LOAD
    return b.array();
  }

  static byte[] staticX86() {
    return of(ElfInfo.X86_64, false);
  }
}
