package dev.abfleet.worker.vm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Tiny files carrying only the header magic of real kernel images. */
public final class TestKernels {

  private TestKernels() {}

  public static Path bzImage(Path file) throws IOException {
    byte[] b = new byte[4096];
    System.arraycopy("HdrS".getBytes(StandardCharsets.US_ASCII), 0, b, 0x202, 4);
    return Files.write(file, b);
  }

  public static Path arm64Image(Path file) throws IOException {
    byte[] b = new byte[4096];
    System.arraycopy(new byte[] {'A', 'R', 'M', 0x64}, 0, b, 0x38, 4);
    return Files.write(file, b);
  }
}
