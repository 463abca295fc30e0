package dev.abfleet.model;

import dev.abfleet.proto.fleet.v1.KernelBuild;
import java.util.List;

/**
 * Where an arm's kernel came from when abfleet built it from source. Provenance only: the arm
 * boots its kernel artifact, which is this build's image; reports name the build beside the arm.
 * One type for the controller's recorded spec and the reports (its JSON form in the journal is
 * its components, so the record's home does not reach stored events).
 *
 * @param key lower-case hex SHA-256 naming the build (over every input and the toolchain)
 * @param source the source as the user named it, e.g. "linux-source-6.1.tar.xz"
 * @param sourceDigest SHA-256 of a source tarball, or the commit id of a git source
 * @param patches patch file names in the order applied; empty = none
 * @param patchDigests SHA-256 of each patch, in the same order
 * @param config the config base, e.g. "abfleet-minimal"
 * @param arch "x86_64" or "aarch64"
 * @param toolchain the toolchain identity, e.g. "gcc (Debian 12.2.0-14) 12.2.0"
 * @param release {@code make kernelrelease} of the built tree, e.g. "6.1.176"
 */
public record ArmBuild(
    String key,
    String source,
    String sourceDigest,
    List<String> patches,
    List<String> patchDigests,
    String config,
    String arch,
    String toolchain,
    String release) {

  public ArmBuild {
    key = key == null ? "" : key;
    source = source == null ? "" : source;
    sourceDigest = sourceDigest == null ? "" : sourceDigest;
    patches = patches == null ? List.of() : List.copyOf(patches);
    patchDigests = patchDigests == null ? List.of() : List.copyOf(patchDigests);
    config = config == null ? "" : config;
    arch = arch == null ? "" : arch;
    toolchain = toolchain == null ? "" : toolchain;
    release = release == null ? "" : release;
  }

  /** The build as the wire carries it ({@code Arm.build}). */
  public static ArmBuild fromProto(KernelBuild b) {
    return new ArmBuild(b.getKey(), b.getSource(), b.getSourceDigest(), b.getPatchesList(),
        b.getPatchDigestsList(), b.getConfig(), b.getArch(), b.getToolchain(), b.getRelease());
  }

  public KernelBuild toProto() {
    return KernelBuild.newBuilder().setKey(key).setSource(source).setSourceDigest(sourceDigest)
        .addAllPatches(patches).addAllPatchDigests(patchDigests).setConfig(config).setArch(arch)
        .setToolchain(toolchain).setRelease(release).build();
  }

  /** The key's first 8 hex digits, as reports print it. */
  public String shortKey() {
    return key.length() <= 8 ? key : key.substring(0, 8);
  }

  /**
   * "build 9b1e07aa (linux-source-6.1.tar.xz + 1 patch: slow-stat.patch, abfleet-minimal,
   * x86_64)"; an empty config or arch is left out.
   */
  public String describe() {
    StringBuilder s = new StringBuilder("build ").append(shortKey()).append(" (").append(source)
        .append(" + ").append(patches.size()).append(patches.size() == 1 ? " patch" : " patches");
    if (!patches.isEmpty()) {
      s.append(": ").append(String.join(", ", patches));
    }
    for (String part : List.of(config, arch)) {
      if (!part.isEmpty()) {
        s.append(", ").append(part);
      }
    }
    return s.append(')').toString();
  }
}
