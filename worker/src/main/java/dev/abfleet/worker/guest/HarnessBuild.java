package dev.abfleet.worker.guest;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

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
  /** The cross compiler for arm64 guests on other hosts (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross). */
  public static final String ARM64_COMPILER = "aarch64-linux-gnu-gcc";

  /** -pthread: fleetbench runs its threads with pthreads (needed to link them before glibc 2.34). */
  static final List<String> FLAGS = List.of("-std=c11", "-static", "-O2", "-Wall", "-pthread");
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(3);
  /** Target triple per compiler name or path, asked once per JVM: it cannot change under us. */
  private static final Map<String, String> TARGETS = new ConcurrentHashMap<>();

  private final Path cacheDir;
  private final String compiler;
  private final CommandRunner runner;

  /**
   * @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet)
   * @param compiler a gcc-compatible driver name or path, e.g. {@link #HOST_COMPILER}
   */
  public HarnessBuild(Path cacheDir, String compiler) {
    this(cacheDir, compiler, new ProcessRunner());
  }

  HarnessBuild(Path cacheDir, String compiler, CommandRunner runner) {
    // Absolute: the compiler runs with its work directory as current directory.
    this.cacheDir = cacheDir.toAbsolutePath();
    this.compiler = compiler;
    this.runner = runner;
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
        CacheFiles.moveIntoPlace(work.resolve("fleetbench"), binary);
      } finally {
        CacheFiles.deleteTree(work);
      }
    } catch (IOException e) {
      throw new GuestImageException("cannot build fleetbench in " + dir + ": " + e, e);
    }
    return binary;
  }

  /**
   * The compiler's target triple, e.g. "x86_64-linux-gnu". Asks the compiler once per JVM and
   * compiler; failures are not remembered.
   */
  public String targetTriple() throws GuestImageException, InterruptedException {
    String known = TARGETS.get(compiler);
    if (known != null) {
      return known;
    }
    String target = askTarget();
    TARGETS.putIfAbsent(compiler, target);
    return target;
  }

  private String askTarget() throws GuestImageException, InterruptedException {
    Path work;
    try {
      work = Files.createDirectories(cacheDir.resolve("guest")).resolve(".dumpmachine-" + UUID.randomUUID());
    } catch (IOException e) {
      throw new GuestImageException("cannot create " + cacheDir.resolve("guest") + ": " + e, e);
    }
    try {
      RunResult r = runTool(dumpMachineArgv(compiler), work, "dumpmachine", PROBE_TIMEOUT);
      String triple = r.stdoutTail().strip();
      if (!r.succeeded() || triple.isEmpty()) {
        throw new GuestImageException(
            String.join(" ", dumpMachineArgv(compiler)) + " failed (" + ended(r) + "): " + r.outputTail());
      }
      return triple;
    } finally {
      deleteQuietly(work);
    }
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
    return Sha256.ofParts(source, Sha256.utf8(target), Sha256.utf8(String.join(" ", FLAGS)));
  }

  /** The fix for a missing compiler, e.g. "install gcc (apt-get install gcc)". */
  static String installHint(String compiler) {
    for (GuestArch arch : GuestArch.values()) {
      if (compiler.endsWith(arch.crossCompiler())) {
        return "install " + arch.crossPackages().replace(" ", " and ")
            + " (apt-get install " + arch.crossPackages() + ")";
      }
    }
    return "install gcc (apt-get install gcc)";
  }

  /** The package with the static C library a compile needs, e.g. libc6-dev. */
  static String staticLibcPackage(String compiler) {
    for (GuestArch arch : GuestArch.values()) {
      if (compiler.endsWith(arch.crossCompiler())) {
        return "libc6-dev-" + arch.debianArch() + "-cross";
      }
    }
    return "libc6-dev";
  }

  private void compile(byte[] source, Path work)
      throws IOException, GuestImageException, InterruptedException {
    Path src = Files.write(work.resolve("fleetbench.c"), source);
    List<String> argv = compileArgv(compiler, src, work.resolve("fleetbench"));
    RunResult r = runTool(argv, work, "compile", COMPILE_TIMEOUT);
    if (!r.succeeded() || !Files.isExecutable(work.resolve("fleetbench"))) {
      throw new GuestImageException(
          "compiling fleetbench failed (" + ended(r) + "): " + String.join(" ", argv)
              + "\n" + r.outputTail()
              + "\n(static linking needs the C library's static archive: " + staticLibcPackage(compiler) + ")");
    }
  }

  /** Runs one compiler call; a compiler that cannot be started is reported with the fix. */
  private RunResult runTool(List<String> argv, Path work, String logName, Duration timeout)
      throws GuestImageException, InterruptedException {
    RunResult r = runner.run(argv, work, logName, timeout);
    if (r.interrupted()) {
      Thread.interrupted(); // the exception carries the interrupt
      throw new InterruptedException(argv.get(0) + " interrupted");
    }
    if (r.launchError() != null) {
      throw new GuestImageException(
          compiler + " not found: " + installHint(compiler)
              + ", or pass the path of a gcc-compatible compiler (" + r.launchError() + ")");
    }
    return r;
  }

  private static String ended(RunResult r) {
    return r.timedOut() ? "killed after " + r.wall().toSeconds() + " s" : "exit " + r.exitCode();
  }

  private static void deleteQuietly(Path dir) {
    try {
      CacheFiles.deleteTree(dir);
    } catch (IOException ignored) {
      // A leftover log directory in the cache is harmless.
    }
  }
}
