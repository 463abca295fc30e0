package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.ArtifactRef;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a spec's artifacts may be read from. A worker stages an artifact from an absolute path
 * or file:// URI on its own host, or from the controller's store ({@code abfleet:sha256:<hex>});
 * it checks the bytes against the sha256, but a uri climbing out with {@code ..}, holding
 * control characters, naming another scheme, or naming another artifact than its sha256 is
 * refused here, when the submitter can still fix it.
 */
final class ArtifactChecks {
  private ArtifactChecks() {}

  static final String STORE_PREFIX = "abfleet:sha256:";
  static final int MAX_URI = 4096;
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+):.*", Pattern.DOTALL);
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  /** Adds the problems of {@code ref} (may be null: nothing to check) at field {@code at}. */
  static void check(String at, ArtifactRef ref, List<String> problems) {
    if (ref == null) {
      return;
    }
    if (ref.sizeBytes() < 0) {
      problems.add(at + ".size_bytes: " + ref.sizeBytes() + " is negative; send the size in bytes (0 = unknown)");
    }
    String uri = ref.uri();
    if (uri.isEmpty()) {
      return;
    }
    String shown = SpecLimits.shown(uri);
    if (uri.length() > MAX_URI) {
      problems.add(at + ".uri: " + uri.length() + " characters; use at most " + MAX_URI);
    } else if (CONTROL.matcher(uri).find()) {
      problems.add(at + ".uri: '" + shown + "' contains control characters; send the path as it is on disk");
    } else if (uri.startsWith(STORE_PREFIX)) {
      String hex = uri.substring(STORE_PREFIX.length());
      if (!HEX.matcher(hex).matches()) {
        problems.add(at + ".uri: '" + shown + "' does not name a sha256 (64 lower-case hex digits); send "
            + STORE_PREFIX + "<the artifact's sha256>");
      } else if (!hex.equals(ref.sha256().toLowerCase(Locale.ROOT))) {
        problems.add(at + ".uri: '" + shown + "' names another artifact than sha256 " + SpecLimits.shown(ref.sha256())
            + "; send " + STORE_PREFIX + "<the artifact's sha256>");
      }
    } else if (SCHEME.matcher(uri).matches() && !uri.startsWith("file:") && schemeBeforeSlash(uri)) {
      problems.add(at + ".uri: '" + shown + "' has an unsupported scheme; send an absolute path, a file:// URI or "
          + STORE_PREFIX + "<hex> (abfleet ab uploads local files for you)");
    } else if (climbsOut(uri)) {
      problems.add(at + ".uri: '" + shown + "' contains '..'; send the path without '..' segments (an absolute,"
          + " normalized path)");
    }
  }

  private static boolean schemeBeforeSlash(String uri) {
    int colon = uri.indexOf(':');
    int slash = uri.indexOf('/');
    return colon > 1 && (slash < 0 || colon < slash);
  }

  private static boolean climbsOut(String uri) {
    for (String segment : uri.split("[/\\\\]", -1)) {
      if (segment.equals("..")) {
        return true;
      }
    }
    return false;
  }
}
