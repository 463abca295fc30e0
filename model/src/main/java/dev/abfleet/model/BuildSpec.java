package dev.abfleet.model;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Everything a kernel build depends on besides the toolchain. Null lists are empty, a null or
 * blank {@code configBase} is {@value #DEFAULT_CONFIG_BASE} and a null {@code arch} is
 * {@code x86_64}.
 *
 * @param source          where the tree comes from
 * @param patches         applied in order with {@code git apply} (-p1 unified diffs)
 * @param configBase      {@code tinyconfig}, {@code defconfig}, {@code allnoconfig},
 *                        {@value #DEFAULT_CONFIG_BASE} (tinyconfig plus the worker builder's minimal fragment)
 *                        or the path of a .config file
 * @param configFragments config fragments merged over the base, in order
 * @param configLines     {@code CONFIG_X=y} / {@code # CONFIG_X is not set} lines merged after the fragments
 * @param arch            {@code x86_64} or {@code aarch64} (built with ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
 * @param makeArgs        extra make arguments, e.g. {@code KCFLAGS=-O3}
 */
public record BuildSpec(BuildSource source, List<Path> patches, String configBase,
    List<Path> configFragments, List<String> configLines, String arch, List<String> makeArgs) {

  public static final String DEFAULT_CONFIG_BASE = "abfleet-minimal";

  /** A config line: {@code CONFIG_X=value} or {@code # CONFIG_X is not set}. */
  public static final Pattern CONFIG_LINE = Pattern.compile("CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set");

  /** A make argument: a variable, NAME=value, never an option that changes what make does with the tree. */
  public static final Pattern MAKE_ARG = Pattern.compile("[A-Z][A-Z0-9_]*=\\S*");

  public BuildSpec {
    patches = patches == null ? List.of() : List.copyOf(patches);
    configBase = configBase == null || configBase.isBlank() ? DEFAULT_CONFIG_BASE : configBase.strip();
    configFragments = configFragments == null ? List.of() : List.copyOf(configFragments);
    configLines = configLines == null ? List.of() : List.copyOf(configLines);
    arch = arch == null || arch.isBlank() ? "x86_64" : arch.strip();
    makeArgs = makeArgs == null ? List.of() : List.copyOf(makeArgs);
  }

  /** {@code source} with the default config ({@value #DEFAULT_CONFIG_BASE}, x86_64) and no patches. */
  public static BuildSpec of(BuildSource source) {
    return new BuildSpec(source, List.of(), null, List.of(), List.of(), null, List.of());
  }

  /** This spec with {@code patches} instead of its own. */
  public BuildSpec withPatches(List<Path> patches) {
    return new BuildSpec(source, patches, configBase, configFragments, configLines, arch, makeArgs);
  }
}
