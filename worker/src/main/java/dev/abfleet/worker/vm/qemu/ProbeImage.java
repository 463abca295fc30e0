package dev.abfleet.worker.vm.qemu;

/**
 * A 64 KiB raw x86 firmware image that proves a vCPU executes guest code in 32-bit protected
 * mode, with no kernel needed. Used with {@code -bios} and an {@code isa-debug-exit} device at
 * I/O port 0xf4: the guest writes 0x42 there and QEMU exits with status (0x42 << 1) | 1 = 133.
 *
 * <p>Why protected mode and not just a real-mode {@code out}: on hosts with a paravirtual KVM
 * but no hardware virtualization (no vmx/svm, as in nested cloud sandboxes) the real-mode
 * instructions at the reset vector do run under {@code -accel kvm}, yet the vCPU hangs at the
 * switch to protected mode, exactly where a Linux boot hangs. Checked on such a host: the
 * real-mode-only image exited 133 in 0.1 s under KVM while a kernel boot and this image hung.
 */
final class ProbeImage {

  /** Exit status of QEMU when the probe guest ran to the end. */
  static final int SUCCESS_EXIT = (0x42 << 1) | 1;

  static final int SIZE = 64 * 1024;

  /** Loaded at the top of the 4 GiB space: image offset X is linear address 0xFFFF0000 + X. */
  private static final byte[] CODE = bytes(
      // offset 0x00, 16-bit real mode
      0xFA,                                     // cli
      0x2E, 0x66, 0x0F, 0x01, 0x16, 0x40, 0x00, // lgdtl cs:[0x0040]
      0x0F, 0x20, 0xC0,                         // mov eax, cr0
      0x0C, 0x01,                               // or al, 1 (PE)
      0x0F, 0x22, 0xC0,                         // mov cr0, eax
      0x66, 0xEA, 0x18, 0x00, 0xFF, 0xFF, 0x08, 0x00, // jmp dword 0x08:0xFFFF0018
      // offset 0x18, 32-bit protected mode
      0x66, 0xB8, 0x10, 0x00,                   // mov ax, 0x10
      0x8E, 0xD8,                               // mov ds, ax
      0xB0, 0x42,                               // mov al, 0x42
      0xE6, 0xF4,                               // out 0xf4, al
      0xF4,                                     // hlt
      0xEB, 0xFE);                              // jmp $

  private static final int GDT = 0x28;
  private static final byte[] GDT_ENTRIES = bytes(
      0, 0, 0, 0, 0, 0, 0, 0,                          // null descriptor
      0xFF, 0xFF, 0x00, 0x00, 0x00, 0x9A, 0xCF, 0x00,  // 0x08: flat 4 GiB code, 32-bit
      0xFF, 0xFF, 0x00, 0x00, 0x00, 0x92, 0xCF, 0x00); // 0x10: flat 4 GiB data
  private static final int GDTR = 0x40;
  private static final byte[] GDTR_VALUE = bytes(
      0x17, 0x00,                // limit: 3 descriptors - 1
      0x28, 0x00, 0xFF, 0xFF);   // base: 0xFFFF0028

  /** The reset vector (CS:IP = F000:FFF0): jmp near to offset 0 (IP wraps modulo 64 KiB). */
  private static final int RESET_VECTOR = 0xFFF0;
  private static final byte[] RESET_JUMP = bytes(0xE9, 0x0D, 0x00);

  private ProbeImage() {}

  /** The firmware image; unused bytes are 0xFF like erased flash. */
  static byte[] bytes() {
    byte[] img = new byte[SIZE];
    java.util.Arrays.fill(img, (byte) 0xFF);
    System.arraycopy(CODE, 0, img, 0, CODE.length);
    System.arraycopy(GDT_ENTRIES, 0, img, GDT, GDT_ENTRIES.length);
    System.arraycopy(GDTR_VALUE, 0, img, GDTR, GDTR_VALUE.length);
    System.arraycopy(RESET_JUMP, 0, img, RESET_VECTOR, RESET_JUMP.length);
    return img;
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }
}
