package dev.abfleet.worker.guest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Cache keys: SHA-256 over length-prefixed parts, so part boundaries cannot shift. */
final class Sha256 {

  private Sha256() {}

  static String of(byte[]... parts) {
    MessageDigest d = digest();
    for (byte[] part : parts) {
      d.update(Long.toString(part.length).getBytes(StandardCharsets.US_ASCII));
      d.update((byte) ':');
      d.update(part);
    }
    return HexFormat.of().formatHex(d.digest());
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
