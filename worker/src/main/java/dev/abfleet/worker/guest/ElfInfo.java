package dev.abfleet.worker.guest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * What an initramfs needs to know about an executable: its CPU and whether it runs without a
 * dynamic loader (the initramfs has no /lib).
 *
 * @param machine ELF {@code e_machine}, e.g. {@link #X86_64} or {@link #AARCH64}
 * @param isStatic true when there is no PT_INTERP program header (static or static-pie)
 */
record ElfInfo(int machine, boolean isStatic) {

  static final int X86_64 = 62;
  static final int AARCH64 = 183;
  private static final int PT_INTERP = 3;

  /** Reads the ELF header and program headers; empty if {@code bytes} is not a valid ELF file. */
  static Optional<ElfInfo> read(byte[] bytes) {
    if (bytes.length < 52
        || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') {
      return Optional.empty();
    }
    boolean is64 = bytes[4] == 2;
    ByteBuffer b = ByteBuffer.wrap(bytes)
        .order(bytes[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    try {
      int machine = Short.toUnsignedInt(b.getShort(18));
      long phoff = is64 ? b.getLong(0x20) : Integer.toUnsignedLong(b.getInt(0x1c));
      int phentsize = Short.toUnsignedInt(b.getShort(is64 ? 0x36 : 0x2a));
      int phnum = Short.toUnsignedInt(b.getShort(is64 ? 0x38 : 0x2c));
      boolean interp = false;
      for (int i = 0; i < phnum; i++) {
        long at = phoff + (long) i * phentsize;
        if (at < 0 || at + 4 > bytes.length) {
          return Optional.empty();
        }
        interp |= b.getInt((int) at) == PT_INTERP;
      }
      return Optional.of(new ElfInfo(machine, !interp));
    } catch (IndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  /**
   * The {@code e_machine} of an ELF file from its first bytes (20 suffice); empty if
   * {@code head} does not start an ELF file.
   */
  static Optional<Integer> machineOf(byte[] head) {
    if (head.length < 20 || head[0] != 0x7f || head[1] != 'E' || head[2] != 'L' || head[3] != 'F') {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(head).order(head[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    return Optional.of(Short.toUnsignedInt(b.getShort(18)));
  }

  /** "x86_64", "aarch64" or "e_machine N". */
  String machineName() {
    return switch (machine) {
      case X86_64 -> "x86_64";
      case AARCH64 -> "aarch64";
      default -> "e_machine " + machine;
    };
  }
}
