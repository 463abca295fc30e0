package dev.abfleet.worker.artifact;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The URI scheme {@code abfleet:sha256:<hex>}: "fetch this artifact from the controller's
 * artifact store by its sha256" (see artifact.proto). Any other artifact URI is a path on the
 * worker's host.
 */
public final class ArtifactUri {

  public static final String PREFIX = "abfleet:sha256:";

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  private ArtifactUri() {}

  /** The URI naming {@code sha256} in the controller's store. */
  public static String of(String sha256) {
    return PREFIX + checked(sha256);
  }

  /** True for a URI of this scheme (well-formed or not). */
  public static boolean isController(String uri) {
    return uri != null && uri.startsWith(PREFIX);
  }

  /** The sha256 a URI of this scheme names; empty for any other URI. */
  public static Optional<String> sha256(String uri) {
    if (!isController(uri)) {
      return Optional.empty();
    }
    return Optional.of(checked(uri.substring(PREFIX.length())));
  }

  /**
   * {@code sha256} in lower case.
   *
   * @throws IllegalArgumentException not 64 hex digits
   */
  public static String checked(String sha256) {
    String hex = sha256 == null ? "" : sha256.toLowerCase(Locale.ROOT);
    if (!SHA256.matcher(hex).matches()) {
      throw new IllegalArgumentException("'" + sha256 + "' is not a sha256 (64 hex digits)");
    }
    return hex;
  }
}
