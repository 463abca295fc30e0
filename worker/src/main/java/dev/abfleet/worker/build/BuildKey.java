package dev.abfleet.worker.build;

import dev.abfleet.worker.artifact.Sha256;
import java.util.ArrayList;
import java.util.List;

/**
 * The identities of a build's inputs, and the keys hashed from them.
 *
 * @param sourceDigest    sha256 of a tarball, a git commit id, or the digest of a tree's listing
 * @param patchDigests    sha256 of each patch, in order
 * @param configBaseId    {@code tinyconfig}/{@code defconfig}/{@code allnoconfig},
 *                        {@code abfleet-minimal:<sha256 of the fragment>} or {@code file:<sha256 of the .config>}
 * @param fragmentDigests sha256 of each config fragment, in order
 * @param configLines     the config lines as given
 * @param arch            {@code x86_64} or {@code aarch64}
 * @param makeArgs        the extra make arguments
 * @param toolchain       first lines of the compiler's and make's {@code --version}
 * @param treeSource      what the warm tree is kept for: the source digest, except for a git
 *                        source, whose tree serves every commit of its repository ({@code git:<path>}),
 *                        so that a bisect's probes rebuild incrementally from one another
 */
record BuildKey(String sourceDigest, List<String> patchDigests, String configBaseId, List<String> fragmentDigests,
    List<String> configLines, String arch, List<String> makeArgs, String toolchain, String treeSource) {

  /** A key whose warm tree is kept for its source digest (tarballs and trees). */
  BuildKey(String sourceDigest, List<String> patchDigests, String configBaseId, List<String> fragmentDigests,
      List<String> configLines, String arch, List<String> makeArgs, String toolchain) {
    this(sourceDigest, patchDigests, configBaseId, fragmentDigests, configLines, arch, makeArgs, toolchain,
        sourceDigest);
  }

  /** Bumped when the way a build turns inputs into artifacts changes, so older entries are not reused. */
  static final String VERSION = "abfleet-kernel-build 1";

  BuildKey {
    patchDigests = List.copyOf(patchDigests);
    fragmentDigests = List.copyOf(fragmentDigests);
    configLines = List.copyOf(configLines);
    makeArgs = List.copyOf(makeArgs);
  }

  /** The build key: every input, patches included. */
  String key() {
    List<String> parts = new ArrayList<>(List.of(VERSION, "source", sourceDigest));
    patchDigests.forEach(p -> parts.addAll(List.of("patch", p)));
    parts.addAll(configParts());
    return hash(parts);
  }

  /**
   * The warm tree's key: the source and the configuration, not the patches, so that a patched
   * build reuses the objects of its unpatched base. Make arguments are part of it so that two
   * arms differing only in, say, KCFLAGS keep a tree each instead of rebuilding each other's.
   */
  String treeKey() {
    List<String> parts = new ArrayList<>(List.of(VERSION, "tree", treeSource));
    parts.addAll(configParts());
    return hash(parts);
  }

  /** The configuration alone, whatever the source: the key of the object count on record. */
  String configKey() {
    List<String> parts = new ArrayList<>(List.of(VERSION, "config"));
    parts.addAll(configParts());
    return hash(parts);
  }

  private List<String> configParts() {
    List<String> parts = new ArrayList<>(List.of("base", configBaseId));
    fragmentDigests.forEach(f -> parts.addAll(List.of("fragment", f)));
    configLines.forEach(l -> parts.addAll(List.of("line", l)));
    parts.addAll(List.of("arch", arch));
    makeArgs.forEach(a -> parts.addAll(List.of("make-arg", a)));
    parts.addAll(List.of("toolchain", toolchain));
    return parts;
  }

  private static String hash(List<String> parts) {
    return Sha256.ofParts(parts.stream().map(Sha256::utf8).toArray(byte[][]::new));
  }
}
