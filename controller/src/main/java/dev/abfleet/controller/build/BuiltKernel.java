package dev.abfleet.controller.build;

import dev.abfleet.model.ArmBuild;
import java.util.List;

/**
 * A kernel built on the fleet: its provenance (as the worker's builder recorded it) and its
 * outputs in the artifact store.
 *
 * @param key the builder's key over every input and the toolchain identity
 * @param sourceDigest SHA-256 of the source tarball
 * @param imageSha256 lower-case hex SHA-256 of bzImage / Image in the store
 * @param logSha256 SHA-256 of the build log in the store; empty = not uploaded
 * @param imageBytes size of the image in bytes
 * @param buildMs wall time of the build on its host in ms; 0 = it was in the host's cache
 */
public record BuiltKernel(String key, String source, String sourceDigest, List<String> patches,
    List<String> patchDigests, String config, String arch, String toolchain, String release,
    String imageSha256, String configSha256, String systemMapSha256, String logSha256,
    long imageBytes, long buildMs) {

  public BuiltKernel {
    patches = patches == null ? List.of() : List.copyOf(patches);
    patchDigests = patchDigests == null ? List.of() : List.copyOf(patchDigests);
  }

  /** Provenance with these outputs (the journal keeps the flat components, so no nesting here). */
  public static BuiltKernel of(ArmBuild p, String imageSha256, String configSha256,
      String systemMapSha256, String logSha256, long imageBytes, long buildMs) {
    return new BuiltKernel(p.key(), p.source(), p.sourceDigest(), p.patches(), p.patchDigests(),
        p.config(), p.arch(), p.toolchain(), p.release(), imageSha256, configSha256,
        systemMapSha256, logSha256, imageBytes, buildMs);
  }

  /** Where this kernel came from, as an arm built from it records it. */
  public ArmBuild provenance() {
    return new ArmBuild(key, source, sourceDigest, patches, patchDigests, config, arch, toolchain,
        release);
  }
}
