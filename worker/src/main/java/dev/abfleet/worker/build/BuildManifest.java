package dev.abfleet.worker.build;

import java.util.List;

/**
 * What was built from what: written as {@code manifest.json} beside the artifacts, last, so
 * its presence marks the cache entry complete.
 *
 * @param key          the build key
 * @param sourceLabel  e.g. {@code linux-source-6.1.tar.xz}, {@code linux@3f2a9c1d0b7e} (repository
 *                     directory name and short commit) or the tree's directory name
 * @param sourceDigest sha256 of the tarball, the commit id of a git source, or the digest of a tree's listing
 * @param patchNames   file names of the patches, in the order applied
 * @param patchDigests their sha256, in the same order
 * @param configBase   the base as given: a make target name or a file path
 * @param arch         {@code x86_64} or {@code aarch64}
 * @param toolchain    first line of the compiler's and of make's {@code --version}, joined by "; "
 * @param release      {@code make kernelrelease}, as {@code uname -r} will say in the guest
 * @param builtAtMs    when the build finished, milliseconds since the epoch
 */
public record BuildManifest(String key, String sourceLabel, String sourceDigest, List<String> patchNames,
    List<String> patchDigests, String configBase, String arch, String toolchain, String release, long builtAtMs) {

  public BuildManifest {
    patchNames = List.copyOf(patchNames);
    patchDigests = List.copyOf(patchDigests);
  }

  /**
   * A one-liner for reports: {@code build 3f2a9c1d: linux-source-6.1.tar.xz + 1 patch
   * (fix.patch), abfleet-minimal, x86_64, 6.1.176}. Up to three patches are named.
   */
  public String describe() {
    StringBuilder s = new StringBuilder("build ").append(key, 0, Math.min(8, key.length()))
        .append(": ").append(sourceLabel);
    if (!patchNames.isEmpty()) {
      s.append(" + ").append(patchNames.size()).append(patchNames.size() == 1 ? " patch" : " patches");
      if (patchNames.size() <= 3) {
        s.append(" (").append(String.join(", ", patchNames)).append(')');
      }
    }
    return s.append(", ").append(configBase).append(", ").append(arch).append(", ").append(release).toString();
  }
}
