package dev.abfleet.worker.artifact;

import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.process.ProcessRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Kernels for tests: tiny files carrying only the header magic, and the real Debian cloud kernel. */
public final class TestKernels {

  /** The Debian 6.1 cloud kernel that end-to-end boots use. */
  public static final String CLOUD_KERNEL = "linux-image-6.1.0-50-cloud-amd64";
  /** The Debian 6.1 generic kernel: 9p and virtio-fs as modules (the cloud kernel has no 9p). */
  public static final String GENERIC_KERNEL = "linux-image-6.1.0-50-amd64";
  /** Debian's arm64 6.1 cloud kernel, an uncompressed Image (needs arm64 among dpkg's architectures). */
  public static final String ARM64_CLOUD_KERNEL = "linux-image-6.1.0-50-cloud-arm64:arm64";

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

  /**
   * The vmlinuz of {@link #CLOUD_KERNEL} in the abfleet cache ({@link WorkerSettings#defaultHome()}),
   * downloaded with apt on first use.
   */
  public static Path cloudKernel() throws IOException {
    return new DebianKernels(new ProcessRunner()).fetch(CLOUD_KERNEL, WorkerSettings.defaultHome());
  }

  /**
   * The vmlinuz of {@link #GENERIC_KERNEL} in the abfleet cache, its module tree beside it at
   * {@code lib/modules/6.1.0-50-amd64}; downloaded with apt on first use.
   */
  public static Path genericKernel() throws IOException {
    return new DebianKernels(new ProcessRunner()).fetch(GENERIC_KERNEL, WorkerSettings.defaultHome());
  }

  /** The Image of {@link #ARM64_CLOUD_KERNEL} in the abfleet cache, downloaded with apt on first use. */
  public static Path arm64CloudKernel() throws IOException {
    return new DebianKernels(new ProcessRunner()).fetch(ARM64_CLOUD_KERNEL, WorkerSettings.defaultHome());
  }
}
