package dev.abfleet.worker.buildjob;

import dev.abfleet.proto.fleet.v1.BuildCapability;
import dev.abfleet.worker.process.Executables;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** What kernels this host can build, as its Hello says: the arches its tools allow and the toolchain. */
public final class BuildCapabilities {
  /** The tools every kernel build needs. */
  static final List<String> TOOLS = List.of("make", "gcc", "flex", "bison", "bc");
  static final String AARCH64_COMPILER = "aarch64-linux-gnu-gcc";

  private BuildCapabilities() {}

  /**
   * x86_64 when every tool of {@link #TOOLS} is installed (the host compiler targets x86_64 on an
   * x86_64 host), aarch64 when the cross compiler is too (or the host is aarch64); empty = none.
   *
   * @param hostArch "x86_64" or "aarch64"
   */
  static List<String> arches(String hostArch, Predicate<String> onPath) {
    if (!TOOLS.stream().allMatch(onPath)) {
      return List.of();
    }
    List<String> arches = new ArrayList<>();
    if (hostArch.equals("x86_64")) {
      arches.add("x86_64");
    }
    if (hostArch.equals("aarch64") || onPath.test(AARCH64_COMPILER)) {
      arches.add("aarch64");
    }
    return arches;
  }

  /** This host's capability; an empty one when {@code enabled} is false (--no-build) or tools are missing. */
  public static BuildCapability probe(String hostArch, boolean enabled) {
    if (!enabled) {
      return BuildCapability.getDefaultInstance();
    }
    List<String> arches = arches(hostArch, tool -> Executables.onPath(tool).isPresent());
    if (arches.isEmpty()) {
      return BuildCapability.getDefaultInstance();
    }
    return BuildCapability.newBuilder().addAllArches(arches)
        .setToolchain(firstLine("gcc") + "; " + firstLine("make")).build();
  }

  /** The first line of {@code tool --version}, as the builder's key records it. */
  private static String firstLine(String tool) {
    try {
      Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
      String line;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        line = r.readLine();
        while (r.readLine() != null) {
          // drained, so the tool can exit
        }
      }
      p.waitFor(30, TimeUnit.SECONDS);
      return line == null ? tool + ": no version" : line.strip();
    } catch (IOException e) {
      return tool + ": not found";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return tool + ": no version";
    }
  }
}
