package dev.abfleet.worker.build;

import dev.abfleet.worker.process.TextTail;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the first useful error out of the output of git apply and make, as pure functions. */
final class BuildErrors {

  /** gcc's {@code path:line:col: error: message} (also {@code fatal error:}; the column is optional). */
  private static final Pattern COMPILE_ERROR =
      Pattern.compile("(?m)^(\\S[^:\\n]*):(\\d+)(?::(\\d+))?: (?:fatal )?error: (.*)$");
  private static final Pattern NOT_FOUND = Pattern.compile(
      "(?m)(?:: |^)([A-Za-z0-9_.+-]+): (?:[Cc]ommand not found|not found|No such file or directory)\\s*$");
  private static final Pattern MISSING_HEADER =
      Pattern.compile("(?m)fatal error: ((?:openssl/|gelf|libelf|elfutils/)[^:\\n]*): No such file or directory");
  private static final Pattern PLEASE_INSTALL = Pattern.compile("(?m)^.*[Pp]lease install .*$");

  /** Debian packages of the tools a kernel build runs. */
  private static final Map<String, String> PACKAGES = Map.ofEntries(Map.entry("make", "make"),
      Map.entry("gcc", "gcc"), Map.entry("cc", "gcc"), Map.entry("ld", "binutils"), Map.entry("flex", "flex"),
      Map.entry("bison", "bison"), Map.entry("bc", "bc"), Map.entry("perl", "perl"), Map.entry("git", "git"),
      Map.entry("tar", "tar"), Map.entry("xz", "xz-utils"), Map.entry("gzip", "gzip"), Map.entry("cpio", "cpio"),
      Map.entry("openssl", "openssl"), Map.entry("pahole", "dwarves"), Map.entry("lz4", "lz4"),
      Map.entry("zstd", "zstd"), Map.entry("python3", "python3"), Map.entry("depmod", "kmod"),
      Map.entry("rsync", "rsync"), Map.entry("cp", "coreutils"),
      Map.entry("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
      Map.entry("aarch64-linux-gnu-ld", "binutils-aarch64-linux-gnu"));

  private BuildErrors() {}

  /** The Debian package that provides {@code tool}, or the tool's own name when unknown. */
  static String packageOf(String tool) {
    return PACKAGES.getOrDefault(tool, tool);
  }

  /**
   * git apply's first {@code error:} line (else its first non-blank line), prefixed with the
   * patch's name: {@code fix.patch: error: patch failed: fs/stat.c:123}.
   */
  static String patchError(String patchName, String gitApplyStderr) {
    String[] lines = TextTail.strip(gitApplyStderr).split("\n");
    String first = Arrays.stream(lines).filter(l -> l.startsWith("error:")).findFirst()
        .or(() -> Arrays.stream(lines).filter(l -> !l.isBlank()).findFirst())
        .orElse("git apply failed without a message");
    return patchName + ": " + first.strip();
  }

  /**
   * Host trouble in a failed command's output: a missing tool or library, a full disk, a
   * compiler killed (by the OOM killer); null when the output shows none.
   */
  static Problem infra(String output) {
    if (output.contains("No space left on device")) {
      return Problem.infra("disk full (No space left on device): free space under the build home, or lower the"
          + " warm-tree budget");
    }
    Matcher header = MISSING_HEADER.matcher(output);
    if (header.find()) {
      String pkg = header.group(1).startsWith("openssl/") ? "libssl-dev" : "libelf-dev";
      return Problem.infra("header " + header.group(1) + " not found: apt-get install " + pkg);
    }
    Matcher please = PLEASE_INSTALL.matcher(output);
    if (please.find()) {
      return Problem.infra(please.group().strip());
    }
    Matcher tool = NOT_FOUND.matcher(output);
    while (tool.find()) {
      if (PACKAGES.containsKey(tool.group(1))) {
        return Problem.infra(tool.group(1) + " not found: apt-get install " + packageOf(tool.group(1)));
      }
    }
    if (output.contains("Killed signal terminated program") || output.contains("internal compiler error: Killed")) {
      return Problem.infra("the compiler was killed (out of memory?): free memory, or pass -j1 in the make arguments");
    }
    return null;
  }

  /**
   * A failed compile: the first gcc error with its file relative to the tree ({@code fs/stat.c}),
   * else the last lines of make's stderr.
   *
   * @param output    make's stdout and stderr
   * @param stderr    make's stderr, for the fallback
   * @param srcPrefix the tree's absolute path, which gcc puts before source files in an out-of-tree build
   */
  static Problem compile(String output, String stderr, String srcPrefix) {
    return compile(output, stderr, srcPrefix, null);
  }

  /**
   * As above, for a build whose output directory is {@code outDir}: through ccache with a base
   * directory, gcc is given (and names) sources relative to it, e.g. {@code ../src/fs/stat.c}.
   */
  static Problem compile(String output, String stderr, String srcPrefix, Path outDir) {
    Matcher m = COMPILE_ERROR.matcher(TextTail.strip(output));
    if (m.find()) {
      String path = m.group(1);
      if (outDir != null && path.startsWith("../")) {
        path = outDir.toAbsolutePath().resolve(path).normalize().toString();
      }
      String file = relative(path, srcPrefix);
      String line = file + m.group().substring(m.group(1).length());
      return new Problem(BuildResult.Kind.COMPILE, file, line);
    }
    String tail = TextTail.lastLines(stderr, 10);
    return new Problem(BuildResult.Kind.COMPILE, null, tail.isBlank() ? "make failed without output" : tail);
  }

  private static String relative(String path, String srcPrefix) {
    String p = path;
    String prefix = srcPrefix.endsWith("/") ? srcPrefix : srcPrefix + "/";
    if (p.startsWith(prefix)) {
      p = p.substring(prefix.length());
    }
    while (p.startsWith("./") || p.startsWith("../")) {
      p = p.substring(p.indexOf('/') + 1);
    }
    return p;
  }
}
