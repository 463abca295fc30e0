package dev.abfleet.controller.plan;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What a kernel build on the fleet reads, every file named by its sha256 in the artifact store.
 * Null lists are empty; a blank {@code configBase} is {@value #DEFAULT_CONFIG_BASE}, a blank
 * {@code arch} is x86_64.
 *
 * @param configFile a .config to start from instead of {@code configBase}; null = none
 */
public record BuildInputs(File source, List<File> patches, String configBase, File configFile,
    List<File> fragments, List<String> configLines, String arch, List<String> makeArgs) {

  public static final String DEFAULT_CONFIG_BASE = "abfleet-minimal";

  /** A stored file under the name the user gave it (no directory). */
  public record File(String name, String sha256) {}

  public BuildInputs {
    patches = patches == null ? List.of() : List.copyOf(patches);
    fragments = fragments == null ? List.of() : List.copyOf(fragments);
    configLines = configLines == null ? List.of() : List.copyOf(configLines);
    makeArgs = makeArgs == null ? List.of() : List.copyOf(makeArgs);
    configBase = configBase == null || configBase.isBlank() ? DEFAULT_CONFIG_BASE : configBase;
    arch = arch == null || arch.isBlank() ? "x86_64" : arch;
  }

  /**
   * The build id: lower-case hex SHA-256 over the inputs' contents (sha256s, not names, except
   * the patches' names, which the build records), so the same inputs are one build.
   */
  public String buildId() {
    StringBuilder s = new StringBuilder("abfleet-build-v1\n");
    s.append("source ").append(source.sha256()).append('\n');
    patches.forEach(p -> s.append("patch ").append(p.name()).append(' ').append(p.sha256()).append('\n'));
    s.append("base ").append(configFile == null ? configBase : "file " + configFile.sha256()).append('\n');
    fragments.forEach(f -> s.append("fragment ").append(f.sha256()).append('\n'));
    configLines.forEach(l -> s.append("line ").append(l).append('\n'));
    s.append("arch ").append(arch).append('\n');
    makeArgs.forEach(a -> s.append("make ").append(a).append('\n'));
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }

  /** Every stored file the build reads, source first. */
  public List<File> files() {
    var all = new java.util.ArrayList<File>();
    all.add(source);
    all.addAll(patches);
    if (configFile != null) {
      all.add(configFile);
    }
    all.addAll(fragments);
    return all;
  }
}
