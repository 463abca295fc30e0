package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * Where an arm's kernel came from when abfleet built it from source. Provenance only: the arm
 * boots its kernel artifact, which is this build's image; reports name the build beside the arm.
 *
 * @param key lower-case hex SHA-256 over every input and the toolchain identity (the build
 *     cache's name for the kernel)
 * @param source the source as the user named it, e.g. "linux-source-6.1.tar.xz"
 * @param sourceDigest SHA-256 of a source tarball, or the commit id of a git source
 * @param patches patch file names in the order applied; empty = none
 * @param patchDigests SHA-256 of each patch, in the same order
 * @param config the config base: "abfleet-minimal", "tinyconfig", "defconfig" or a file's name
 * @param arch "x86_64" or "aarch64"
 * @param toolchain the toolchain identity, e.g. "gcc (Debian 12.2.0-14) 12.2.0"
 * @param release {@code make kernelrelease} of the built tree, e.g. "6.1.176"
 */
public record KernelBuildInfo(
    String key,
    String source,
    String sourceDigest,
    List<String> patches,
    List<String> patchDigests,
    String config,
    String arch,
    String toolchain,
    String release) {

  public KernelBuildInfo {
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
}
