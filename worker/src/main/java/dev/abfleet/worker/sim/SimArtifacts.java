package dev.abfleet.worker.sim;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Placeholder files for simulated boots. A sim boot never reads its kernel or initrd, but the
 * worker stages both by sha256 like for a real boot (that path is exercised too), so an
 * experiment on sim hosts names a kernel file the workers can read; any small file will do, and
 * {@link #kernel} writes one. The initrd placeholder stands in for the built-in harness
 * initramfs, which a sim worker never builds (no compiler or busybox needed).
 *
 * <p>A placeholder kernel may carry a SIMULATED effect ({@link #kernel(Path, String, Map)}, format
 * in {@link SimKernelEffects}): the sim driver multiplies the named metrics of every boot of it,
 * so an ordered list of kernel files can hold, say, the first regressing build of a bisect.
 */
public final class SimArtifacts {
  private SimArtifacts() {}

  /** A placeholder kernel named {@code name} under {@code dir}, as an artifact (sha256, path, size). */
  public static Artifact kernel(Path dir, String name) throws IOException {
    return kernel(dir, name, Map.of());
  }

  /**
   * A placeholder kernel {@code sim-kernel-<name>} under {@code dir} whose boots simulate
   * {@code effects}: factor per metric, e.g. {@code {seq_read: 0.85}} for -15%.
   *
   * @throws IllegalArgumentException for a factor that is not a number &gt; 0 or a bad metric name
   */
  public static Artifact kernel(Path dir, String name, Map<String, Double> effects) throws IOException {
    return kernelAt(dir.resolve("sim-kernel-" + name), effects);
  }

  /**
   * A placeholder kernel at exactly {@code file} (e.g. {@code builds/vmlinuz-7}, where a nightly
   * schedule looks for builds) whose boots simulate {@code effects}; named after the file.
   *
   * @throws IllegalArgumentException for a factor that is not a number &gt; 0 or a bad metric name
   */
  public static Artifact kernelAt(Path file, Map<String, Double> effects) throws IOException {
    return write(file, SimKernelEffects.format(file.getFileName().toString().replaceFirst("^sim-kernel-", ""),
        effects));
  }

  /**
   * The problem with {@code file} as the kernel of an arm on sim hosts, or empty: a placeholder
   * (its first line {@link SimKernelEffects#MARKER}, its effects well-formed) or a real kernel
   * image (which simulates no effect). A random binary, a text file or an empty file is neither:
   * it would be uploaded and "booted" as though it were a kernel.
   */
  public static Optional<String> checkKernel(Path file) {
    KernelImage.Inspection image = KernelImage.inspect(file);
    if (image.ok()) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(file)) {
      return Optional.of(image.problem() + " (or a sim placeholder kernel: abfleet sim-kernels writes them)");
    }
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(SimKernelEffects.MAX_BYTES + 1);
    } catch (IOException e) {
      return Optional.of(file + " is not readable (" + e.getMessage() + "); fix its permissions or pass another file");
    }
    String text = new String(head, StandardCharsets.UTF_8);
    if (head.length > SimKernelEffects.MAX_BYTES || !text.startsWith(SimKernelEffects.MARKER)) {
      return Optional.of(file + " is neither a sim placeholder kernel (its first line starts '"
          + SimKernelEffects.MARKER + "') nor a kernel image; write placeholders with abfleet sim-kernels --dir DIR");
    }
    List<String> errors = SimKernelEffects.parse(text).errors();
    return errors.isEmpty() ? Optional.empty() : Optional.of(file + ": " + errors.get(0));
  }

  /** The placeholder initramfs under {@code home}/sim. */
  public static Artifact initrd(Path home) throws IOException {
    return write(home.resolve("sim").resolve("placeholder-initrd"),
        "abfleet SIMULATION placeholder initramfs: the sim hypervisor runs no guest\n");
  }

  /** Writes {@code text} to {@code file} unless it already holds it; safe when many agents race. */
  private static Artifact write(Path file, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    Files.createDirectories(file.getParent());
    if (!Files.isRegularFile(file) || Files.size(file) != bytes.length
        || !Arrays.equals(Files.readAllBytes(file), bytes)) {
      Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".part");
      try {
        Files.write(tmp, bytes);
        CacheFiles.moveIntoPlace(tmp, file);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    return Artifact.newBuilder()
        .setSha256(Sha256.ofFile(file))
        .setUri(file.toAbsolutePath().toString())
        .setSizeBytes(bytes.length)
        .build();
  }
}
