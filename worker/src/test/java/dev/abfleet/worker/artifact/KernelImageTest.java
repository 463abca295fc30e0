package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelImageTest {

  @TempDir
  Path dir;

  @Test
  void detectsX86BzImage() throws Exception {
    KernelImage.Inspection i = KernelImage.inspect(TestKernels.bzImage(dir.resolve("vmlinuz")));

    assertThat(i.arch()).isEqualTo("x86_64");
    assertThat(i.problem()).isNull();
  }

  @Test
  void detectsArm64Image() throws Exception {
    assertThat(KernelImage.inspect(TestKernels.arm64Image(dir.resolve("Image"))).arch()).isEqualTo("aarch64");
  }

  @Test
  void rejectsMissingFile() {
    assertThat(KernelImage.check(dir.resolve("nope"))).hasValueSatisfying(m ->
        assertThat(m).contains(dir.resolve("nope").toString(), "does not exist"));
  }

  @Test
  @org.junit.jupiter.api.Timeout(10)
  @org.junit.jupiter.api.condition.EnabledOnOs(org.junit.jupiter.api.condition.OS.LINUX)
  void rejectsAFifoWithoutOpeningIt() throws Exception {
    Path pipe = dir.resolve("vmlinuz");
    assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();

    assertThat(KernelImage.check(pipe)).hasValueSatisfying(m ->
        assertThat(m).contains(pipe.toString(), "is a FIFO (named pipe), not a regular file"));
  }

  @Test
  void rejectsDirectory() {
    assertThat(KernelImage.check(dir)).hasValueSatisfying(m -> assertThat(m).contains("is a directory"));
  }

  @Test
  void rejectsTinyFile() throws Exception {
    Path f = Files.write(dir.resolve("small"), new byte[100]);

    assertThat(KernelImage.check(f)).hasValueSatisfying(m -> assertThat(m).contains("too small (100 bytes)"));
  }

  @Test
  void rejectsFileWithoutKernelMagic() throws Exception {
    Path f = Files.write(dir.resolve("initrd.gz"), new byte[8192]);

    assertThat(KernelImage.check(f)).hasValue(f + " is not a Linux kernel image (no bzImage 'HdrS' header at"
        + " 0x202 nor arm64 'ARMd' magic at 0x38); pass a vmlinuz/bzImage/Image file");
  }

  @Test
  void explainsGzipCompressedImage() throws Exception {
    byte[] b = new byte[8192];
    b[0] = 0x1F;
    b[1] = (byte) 0x8B;
    Path f = Files.write(dir.resolve("Image.gz"), b);

    assertThat(KernelImage.check(f)).hasValueSatisfying(m -> assertThat(m).contains("gzip-compressed", "gunzip"));
  }
}
