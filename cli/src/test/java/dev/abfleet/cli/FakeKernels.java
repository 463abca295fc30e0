package dev.abfleet.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files that pass ab's kernel check without being a kernel, for tests that never boot. */
public final class FakeKernels {
  private FakeKernels() {}

  /** {@code dir/vmlinuz}: 4 KiB with the x86 boot protocol's "HdrS" magic at 0x202. */
  public static Path bzImage(Path dir) throws IOException {
    byte[] b = new byte[4096];
    b[0x202] = 'H';
    b[0x203] = 'd';
    b[0x204] = 'r';
    b[0x205] = 'S';
    return Files.write(dir.resolve("vmlinuz"), b);
  }
}
