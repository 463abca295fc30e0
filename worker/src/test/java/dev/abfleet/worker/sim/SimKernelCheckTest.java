package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.artifact.TestKernels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An arm on sim hosts boots a sim placeholder or a kernel image, never any file at all. */
class SimKernelCheckTest {
  @TempDir Path dir;

  private static final String NEITHER = "is neither a sim placeholder kernel";

  @Test
  void acceptsPlaceholdersWithAndWithoutEffects() throws Exception {
    Path plain = Path.of(SimArtifacts.kernel(dir, "base").getUri());
    Path slower = Path.of(SimArtifacts.kernel(dir, "slow", Map.of("seq_read", 0.85)).getUri());

    assertThat(SimArtifacts.checkKernel(plain)).isEmpty();
    assertThat(SimArtifacts.checkKernel(slower)).isEmpty();
  }

  @Test
  void acceptsARealKernelImage() throws Exception {
    assertThat(SimArtifacts.checkKernel(TestKernels.bzImage(dir.resolve("vmlinuz")))).isEmpty();
  }

  @Test
  void rejectsARandomBinary() throws Exception {
    byte[] bytes = new byte[4096];
    new Random(7).nextBytes(bytes);
    Path file = Files.write(dir.resolve("random.bin"), bytes);

    assertThat(SimArtifacts.checkKernel(file)).get().asString().startsWith(file + " " + NEITHER)
        .endsWith("write placeholders with abfleet sim-kernels --dir DIR");
  }

  @Test
  void rejectsATextFile() throws Exception {
    Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n".repeat(40));

    assertThat(SimArtifacts.checkKernel(passwd)).get().asString().contains(NEITHER);
  }

  @Test
  void rejectsAnEmptyFile() throws Exception {
    Path empty = Files.createFile(dir.resolve("empty"));

    assertThat(SimArtifacts.checkKernel(empty)).get().asString().contains(NEITHER);
  }

  @Test
  void rejectsAPlaceholderWithABadEffectLine() throws Exception {
    Path file = Files.writeString(dir.resolve("k"), SimKernelEffects.MARKER + " 'k': x\nsim.effect.seq_read=fast\n");

    assertThat(SimArtifacts.checkKernel(file)).get().asString().startsWith(file + ": ");
  }
}
