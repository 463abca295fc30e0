package dev.abfleet.controller.experiment;

import dev.abfleet.model.ArmBuild;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an arm's build provenance may hold. Reports print it beside the arm, so it is held to the
 * spec's free-text rules (one printable line, at most {@link SpecLimits#MAX_TEXT} characters),
 * and its digests must be digests: a report's short key is the key's first 8 hex digits.
 */
final class BuildChecks {
  private BuildChecks() {}

  static final int MAX_PATCHES = 256;
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  /** Adds the problems of {@code build} (may be null: nothing to check) at field {@code at}. */
  static void check(String at, ArmBuild build, List<String> problems) {
    if (build == null) {
      return;
    }
    if (!SHA256.matcher(build.key()).matches()) {
      problems.add(at + ".key: '" + SpecLimits.shown(build.key()) + "' is not a lower-case hex"
          + " SHA-256; send the build's key, 64 hex digits");
    }
    if (build.patches().size() > MAX_PATCHES) {
      problems.add(at + ".patches: " + build.patches().size() + " entries; at most " + MAX_PATCHES
          + " are allowed, squash some patches");
      return;
    }
    if (build.patchDigests().size() != build.patches().size()) {
      problems.add(at + ".patch_digests: " + build.patchDigests().size() + " digests for "
          + build.patches().size() + " patches; send one SHA-256 per patch, in the same order");
    } else {
      for (int i = 0; i < build.patchDigests().size(); i++) {
        if (!SHA256.matcher(build.patchDigests().get(i)).matches()) {
          problems.add(at + ".patch_digests[" + i + "]: '" + SpecLimits.shown(build.patchDigests().get(i))
              + "' is not a lower-case hex SHA-256; send sha256sum of " + SpecLimits.shown(build.patches().get(i)));
        }
      }
    }
    SpecLimits.text(at + ".source", build.source(), SpecLimits.MAX_TEXT, problems);
    SpecLimits.text(at + ".source_digest", build.sourceDigest(), SpecLimits.MAX_TEXT, problems);
    for (int i = 0; i < build.patches().size(); i++) {
      SpecLimits.text(at + ".patches[" + i + "]", build.patches().get(i), SpecLimits.MAX_TEXT, problems);
    }
    SpecLimits.text(at + ".config", build.config(), SpecLimits.MAX_TEXT, problems);
    SpecLimits.text(at + ".arch", build.arch(), SpecLimits.MAX_TEXT, problems);
    SpecLimits.text(at + ".toolchain", build.toolchain(), SpecLimits.MAX_TEXT, problems);
    SpecLimits.text(at + ".release", build.release(), SpecLimits.MAX_TEXT, problems);
  }
}
