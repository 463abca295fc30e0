package dev.abfleet.worker.sim;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Placeholder files for simulated boots. A sim boot never reads its kernel or initrd, but the
 * worker stages both by sha256 like for a real boot (that path is exercised too), so an
 * experiment on sim hosts names a kernel file the workers can read; any small file will do, and
 * {@link #kernel} writes one. The initrd placeholder stands in for the built-in harness
 * initramfs, which a sim worker never builds (no compiler or busybox needed).
 */
public final class SimArtifacts {
  private SimArtifacts() {}

  /** A placeholder kernel named {@code name} under {@code dir}, as an artifact (sha256, path, size). */
  public static Artifact kernel(Path dir, String name) throws IOException {
    return write(dir.resolve("sim-kernel-" + name), "abfleet SIMULATION placeholder kernel '" + name
        + "': the sim hypervisor never boots it\n");
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
    if (!Files.isRegularFile(file) || Files.size(file) != bytes.length) {
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
