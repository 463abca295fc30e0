package dev.abfleet.worker.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lower-case hex: of file contents (artifact ids) and of cache-key parts. */
public final class Sha256 {

  private Sha256() {}

  /** The hash of a file's content, as in {@code sha256sum FILE}. */
  public static String ofFile(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return transferHashing(in, OutputStream.nullOutputStream());
    }
  }

  /** Copies {@code source} to {@code target} and returns the hash of what was copied. */
  static String copy(Path source, Path target) throws IOException {
    try (InputStream in = Files.newInputStream(source);
        OutputStream out = Files.newOutputStream(target)) {
      return transferHashing(in, out);
    }
  }

  /**
   * A cache key over several parts. Each part is length-prefixed, so part boundaries cannot
   * shift: {@code ofParts("ab", "c")} differs from {@code ofParts("a", "bc")}.
   */
  public static String ofParts(byte[]... parts) {
    MessageDigest d = newDigest();
    for (byte[] part : parts) {
      d.update(Long.toString(part.length).getBytes(StandardCharsets.US_ASCII));
      d.update((byte) ':');
      d.update(part);
    }
    return HexFormat.of().formatHex(d.digest());
  }

  /** {@code s} as UTF-8, for {@link #ofParts}. */
  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String transferHashing(InputStream in, OutputStream out) throws IOException {
    MessageDigest d = newDigest();
    new DigestInputStream(in, d).transferTo(out);
    return HexFormat.of().formatHex(d.digest());
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
