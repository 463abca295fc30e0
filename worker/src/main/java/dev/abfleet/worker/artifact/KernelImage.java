package dev.abfleet.worker.artifact;

import dev.abfleet.model.RegularFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Recognises Linux kernel images before a VM is started, so that a wrong file becomes a
 * clear message instead of a guest that hangs silently.
 *
 * <ul>
 *   <li>x86 bzImage: boot protocol header magic {@code "HdrS"} at offset 0x202;</li>
 *   <li>arm64 Image (uncompressed, as Apple VZ requires): magic {@code "ARM\x64"} at offset 0x38.</li>
 * </ul>
 */
public final class KernelImage {

  /**
   * What {@link #inspect} found.
   *
   * @param arch    {@code x86_64} or {@code aarch64} when recognised, else null
   * @param problem null when recognised, else a message naming the path and the fix
   */
  public record Inspection(String arch, String problem) {

    public boolean ok() {
      return problem == null;
    }
  }

  /** Smaller than this cannot hold a kernel; real ones are megabytes. */
  static final int MIN_SIZE = 1024;

  private static final int BZIMAGE_MAGIC_AT = 0x202;
  private static final byte[] BZIMAGE_MAGIC = "HdrS".getBytes(StandardCharsets.US_ASCII);
  private static final int ARM64_MAGIC_AT = 0x38;
  private static final byte[] ARM64_MAGIC = {'A', 'R', 'M', 0x64};

  private KernelImage() {}

  /** The problem with {@code path} as a kernel image, or empty when it is a bzImage or arm64 Image. */
  public static Optional<String> check(Path path) {
    return Optional.ofNullable(inspect(path).problem());
  }

  /** Detects the kernel's architecture or says why {@code path} is not a usable kernel image. */
  public static Inspection inspect(Path path) {
    if (!Files.exists(path)) {
      return problem("kernel image " + path + " does not exist; pass the path of a vmlinuz/bzImage/Image file");
    }
    if (Files.isDirectory(path)) {
      return problem("kernel image " + path + " is a directory; pass the vmlinuz/bzImage/Image file inside it"
          + " (for an unpacked Debian package: boot/vmlinuz-*)");
    }
    Optional<String> special = RegularFiles.special(path, "kernel image");
    if (special.isPresent()) {
      return problem("kernel image " + special.get());
    }
    byte[] head = new byte[BZIMAGE_MAGIC_AT + BZIMAGE_MAGIC.length];
    long size;
    try (SeekableByteChannel ch = Files.newByteChannel(path)) {
      size = ch.size();
      ByteBuffer buf = ByteBuffer.wrap(head);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // fill the header window
      }
    } catch (IOException e) {
      return problem("kernel image " + path + " is not readable (" + e.getMessage()
          + "); fix its permissions or pass another file");
    }
    if (size < MIN_SIZE) {
      return problem("kernel image " + path + " is too small (" + size + " bytes) to be a kernel;"
          + " pass a vmlinuz/bzImage/Image file");
    }
    if (matches(head, BZIMAGE_MAGIC_AT, BZIMAGE_MAGIC)) {
      return new Inspection("x86_64", null);
    }
    if (matches(head, ARM64_MAGIC_AT, ARM64_MAGIC)) {
      return new Inspection("aarch64", null);
    }
    if ((head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B) {
      return problem(path + " is gzip-compressed, not a bootable kernel image; decompress it"
          + " (gunzip -c " + path + " > Image) and pass the uncompressed Image");
    }
    return problem(path + " is not a Linux kernel image (no bzImage 'HdrS' header at 0x202 nor arm64 'ARMd'"
        + " magic at 0x38); pass a vmlinuz/bzImage/Image file");
  }

  private static boolean matches(byte[] head, int at, byte[] magic) {
    for (int i = 0; i < magic.length; i++) {
      if (head[at + i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  private static Inspection problem(String message) {
    return new Inspection(null, message);
  }

  /** Where the x86 boot header keeps the offset (minus 0x200) of the kernel version string. */
  private static final int BZIMAGE_VERSION_PTR_AT = 0x20E;

  /**
   * The release an x86 bzImage was built as (its {@code uname -r}, the first word of the
   * header's kernel_version string, e.g. {@code 6.1.0-50-amd64}); empty for other images or
   * when the header holds none.
   */
  public static Optional<String> release(Path path) {
    try (SeekableByteChannel ch = Files.newByteChannel(path)) {
      ByteBuffer head = ByteBuffer.allocate(BZIMAGE_VERSION_PTR_AT + 2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill the header window
      }
      if (head.hasRemaining() || !matches(head.array(), BZIMAGE_MAGIC_AT, BZIMAGE_MAGIC)) {
        return Optional.empty();
      }
      int offset = Short.toUnsignedInt(head.getShort(BZIMAGE_VERSION_PTR_AT));
      if (offset == 0) {
        return Optional.empty();
      }
      ByteBuffer text = ByteBuffer.allocate(128);
      ch.position(offset + 0x200L);
      while (text.hasRemaining() && ch.read(text) > 0) {
        // fill the version window
      }
      String s = new String(text.array(), 0, text.position(), StandardCharsets.US_ASCII);
      int end = 0;
      while (end < s.length() && s.charAt(end) > ' ' && s.charAt(end) < 0x7f) {
        end++;
      }
      return end == 0 ? Optional.empty() : Optional.of(s.substring(0, end));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
