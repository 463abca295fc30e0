package dev.abfleet.worker.guest;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds the static fleetbench binary from the C source in the guest jar and caches it.
 *
 * <p>Cache layout: {@code CACHE/guest/fleetbench/KEY/fleetbench}, KEY = SHA-256 of the source,
 * the compiler's target triple ({@code -dumpmachine}) and the flags. A cached binary is reused;
 * a new one is compiled in a private temp directory and moved into place atomically, so
 * concurrent builders and crashes never leave a half-written binary.
 */
public final class HarnessBuild {

  /** The compiler for guests of the host's own architecture. */
  public static final String HOST_COMPILER = "gcc";
  /** The cross compiler for arm64 guests (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross). */
  public static final String ARM64_COMPILER = "aarch64-linux-gnu-gcc";

  static final List<String> FLAGS = List.of("-std=c11", "-static", "-O2", "-Wall");
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(3);

  private final Path cacheDir;
  private final String compiler;

  /**
   * @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet)
   * @param compiler a gcc-compatible driver name or path, e.g. {@link #HOST_COMPILER}
   */
  public HarnessBuild(Path cacheDir, String compiler) {
    this.cacheDir = cacheDir;
    this.compiler = compiler;
  }

  /**
   * Returns the path of a static fleetbench binary for this compiler's target, compiling it
   * first if the cache has none.
   *
   * @throws GuestImageException the compiler is missing or the compile failed (message says why)
   */
  public Path ensureBinary() throws GuestImageException, InterruptedException {
    byte[] source = Resources.read(Resources.HARNESS_SOURCE);
    String target = targetTriple();
    Path dir = cacheDir.resolve("guest").resolve("fleetbench").resolve(cacheKey(source, target));
    Path binary = dir.resolve("fleetbench");
    if (Files.isExecutable(binary)) {
      return binary;
    }
    try {
      Files.createDirectories(dir);
      Path work = Files.createTempDirectory(dir, ".build-");
      try {
        compile(source, work);
        moveIntoPlace(work.resolve("fleetbench"), binary);
      } finally {
        deleteTree(work);
      }
    } catch (IOException e) {
      throw new GuestImageException("cannot build fleetbench in " + dir + ": " + e, e);
    }
    return binary;
  }

  /** The compiler's target triple, e.g. "x86_64-linux-gnu". */
  public String targetTriple() throws GuestImageException, InterruptedException {
    ProcessRunner.Result r = runTool(dumpMachineArgv(compiler), "dumpmachine");
    if (!r.ok() || r.output().isBlank()) {
      throw new GuestImageException(
          String.join(" ", dumpMachineArgv(compiler)) + " failed (exit " + r.exitCode() + "): "
              + r.output());
    }
    return r.output().strip();
  }

  /** {@code COMPILER -dumpmachine}. */
  static List<String> dumpMachineArgv(String compiler) {
    return List.of(compiler, "-dumpmachine");
  }

  /** {@code COMPILER -std=c11 -static -O2 -Wall -o OUTPUT SOURCE}. */
  static List<String> compileArgv(String compiler, Path source, Path output) {
    List<String> argv = new ArrayList<>();
    argv.add(compiler);
    argv.addAll(FLAGS);
    argv.add("-o");
    argv.add(output.toString());
    argv.add(source.toString());
    return argv;
  }

  /** Hex SHA-256 naming one build: source, target triple and flags. */
  static String cacheKey(byte[] source, String target) {
    return Sha256.of(source, Sha256.utf8(target), Sha256.utf8(String.join(" ", FLAGS)));
  }

  /** The fix for a missing compiler, e.g. "install gcc (apt-get install gcc)". */
  static String installHint(String compiler) {
    return compiler.contains("aarch64")
        ? "install gcc-aarch64-linux-gnu and libc6-dev-arm64-cross"
            + " (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
        : "install gcc (apt-get install gcc)";
  }

  private void compile(byte[] source, Path work)
      throws IOException, GuestImageException, InterruptedException {
    Path src = Files.write(work.resolve("fleetbench.c"), source);
    List<String> argv = compileArgv(compiler, src, work.resolve("fleetbench"));
    ProcessRunner.Result r = runTool(argv, "compile");
    if (!r.ok() || !Files.isExecutable(work.resolve("fleetbench"))) {
      throw new GuestImageException(
          "compiling fleetbench failed (exit " + r.exitCode() + "): " + String.join(" ", argv)
              + "\n" + r.output()
              + "\n(static linking needs the C library's static archive: libc6-dev)");
    }
  }

  private ProcessRunner.Result runTool(List<String> argv, String what)
      throws GuestImageException, InterruptedException {
    Path log = null;
    try {
      Files.createDirectories(cacheDir);
      log = Files.createTempFile(cacheDir, ".fleetbench-" + what + "-", ".log");
      return ProcessRunner.run(
          argv, log, what.equals("compile") ? COMPILE_TIMEOUT : PROBE_TIMEOUT);
    } catch (IOException e) {
      if (log != null && e.getMessage() != null && e.getMessage().contains("Cannot run program")) {
        throw new GuestImageException(
            compiler + " not found: " + installHint(compiler)
                + ", or pass the path of a gcc-compatible compiler", e);
      }
      throw new GuestImageException("cannot run " + argv.get(0) + ": " + e, e);
    } finally {
      if (log != null) {
        try {
          Files.deleteIfExists(log);
        } catch (IOException ignored) {
          // A leftover log in the cache is harmless.
        }
      }
    }
  }

  static void moveIntoPlace(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
