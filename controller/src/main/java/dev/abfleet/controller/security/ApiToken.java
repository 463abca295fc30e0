package dev.abfleet.controller.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API token format {@code abf_<12 hex id>_<secret>}: the id is public (lists, logs, revoke),
 * the secret is 32 random bytes in base64url and is kept only as SHA-256(salt || secret) with a
 * random 16-byte salt per token.
 *
 * @param id 12 lower-case hex digits
 * @param secret the base64url secret
 */
public record ApiToken(String id, String secret) {
  private static final Pattern FORMAT = Pattern.compile("abf_([0-9a-f]{12})_([A-Za-z0-9_-]{43})");
  private static final Pattern ID = Pattern.compile("[0-9a-f]{12}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A new token with a random id and secret. */
  public static ApiToken generate() {
    byte[] id = new byte[6];
    byte[] secret = new byte[32];
    RANDOM.nextBytes(id);
    RANDOM.nextBytes(secret);
    return new ApiToken(HexFormat.of().formatHex(id),
        Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
  }

  /** The token as a client presents it; {@link #toString()} never shows the secret. */
  public String value() {
    return "abf_" + id + "_" + secret;
  }

  /** The token's value, or empty when {@code text} is not in the abfleet token format. */
  public static Optional<ApiToken> parse(String text) {
    var m = FORMAT.matcher(text.strip());
    return m.matches() ? Optional.of(new ApiToken(m.group(1), m.group(2))) : Optional.empty();
  }

  /** True for a 12-hex-digit token id. */
  public static boolean isId(String text) {
    return ID.matcher(text).matches();
  }

  /** A shortened form for messages, e.g. {@code abf_1a2b3c4d5e6f_...}. */
  public static String shown(String id) {
    return "abf_" + id + "_...";
  }

  /** A fresh random salt for a new token's hash. */
  public static byte[] newSalt() {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return salt;
  }

  /** SHA-256(salt || secret). */
  public static byte[] hash(byte[] salt, String secret) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      sha.update(secret.getBytes(StandardCharsets.US_ASCII));
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** Whether this token's secret hashes, with {@code salt}, to {@code storedHash}; constant time. */
  public boolean matches(byte[] salt, byte[] storedHash) {
    return MessageDigest.isEqual(hash(salt, secret), storedHash);
  }

  @Override
  public String toString() {
    return shown(id);
  }
}
