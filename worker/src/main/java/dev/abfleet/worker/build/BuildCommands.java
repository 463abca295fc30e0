package dev.abfleet.worker.build;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The argv of every command a build runs, as pure functions: git and tar to prepare a warm
 * tree, make to configure and compile. Paths are absolute; no shell is involved.
 */
final class BuildCommands {

  /** The build timestamp compiled into every kernel, so that equal inputs give equal images. */
  static final String TIMESTAMP = "Sat Jan  1 00:00:00 UTC 2000";

  private static final List<String> GIT = List.of("git", "-c", "core.autocrlf=false", "-c", "user.name=abfleet",
      "-c", "user.email=abfleet@localhost", "-c", "gc.auto=0", "-c", "commit.gpgsign=false");

  private BuildCommands() {}

  /** Kbuild's ARCH for an abfleet arch: {@code x86_64} or {@code arm64}. */
  static String kbuildArch(String arch) {
    return arch.equals("aarch64") ? "arm64" : "x86_64";
  }

  /** The C compiler that builds kernels of {@code arch} on this (x86_64) host. */
  static String compiler(String arch) {
    return arch.equals("aarch64") ? "aarch64-linux-gnu-gcc" : "gcc";
  }

  /** The make target of the boot image. */
  static String imageTarget(String arch) {
    return arch.equals("aarch64") ? "Image" : "bzImage";
  }

  /** Where make leaves the boot image, relative to the output directory. */
  static String imagePath(String arch) {
    return arch.equals("aarch64") ? "arch/arm64/boot/Image" : "arch/x86/boot/bzImage";
  }

  /** Variables for make: the arch, cross compiler and a fixed build identity. */
  static List<String> environment(String arch) {
    List<String> env = new ArrayList<>(List.of("env", "ARCH=" + kbuildArch(arch)));
    if (arch.equals("aarch64")) {
      env.add("CROSS_COMPILE=aarch64-linux-gnu-");
    }
    env.addAll(List.of("KBUILD_BUILD_USER=abfleet", "KBUILD_BUILD_HOST=abfleet",
        "KBUILD_BUILD_TIMESTAMP=" + TIMESTAMP, "KBUILD_BUILD_VERSION=1"));
    return env;
  }

  /**
   * {@code make -C src O=out} with the arch, an empty LOCALVERSION (a git work tree would
   * otherwise append "+" to the release), the user's arguments (last, so they can override)
   * and the targets. {@code jobs} 0 leaves out {@code -j}.
   */
  static List<String> make(String arch, Path src, Path out, int jobs, List<String> makeArgs, String... targets) {
    return make(arch, src, out, jobs, Optional.empty(), makeArgs, targets);
  }

  /** As above, compiling through {@code cache} when there is one (a user's CC= still wins). */
  static List<String> make(String arch, Path src, Path out, int jobs, Optional<CompilerCache> cache,
      List<String> makeArgs, String... targets) {
    List<String> argv = new ArrayList<>(environment(arch));
    cache.ifPresent(c -> argv.addAll(c.environment()));
    argv.addAll(List.of("make", "-C", src.toString(), "O=" + out, "LOCALVERSION="));
    cache.ifPresent(c -> argv.add(c.compilerVariable(arch)));
    if (jobs > 0) {
      argv.add("-j" + jobs);
    }
    argv.addAll(makeArgs);
    argv.addAll(List.of(targets));
    return argv;
  }

  /** Unpacks a tarball into {@code dir}, dropping its top-level directory. */
  static List<String> untar(Path tarball, Path dir) {
    return List.of("tar", "-xf", tarball.toString(), "--strip-components=1", "-C", dir.toString());
  }

  /** {@code git [identity and safety options] -C dir ARGS}. */
  static List<String> git(Path dir, String... args) {
    List<String> argv = new ArrayList<>(GIT);
    argv.addAll(List.of("-C", dir.toString()));
    argv.addAll(List.of(args));
    return argv;
  }

  /** Records every file of {@code dir} (ignored ones too) as the base commit of a new repository. */
  static List<List<String>> importTree(Path dir) {
    return List.of(
        git(dir, "init", "-q"),
        git(dir, "add", "-A", "-f"),
        git(dir, "commit", "-q", "--no-verify", "--allow-empty", "-m", "abfleet base"));
  }

  /** A work tree of {@code repo} that borrows its objects, with nothing checked out yet. */
  static List<String> cloneShared(Path repo, Path dir) {
    List<String> argv = new ArrayList<>(GIT);
    argv.addAll(List.of("clone", "-q", "--shared", "--no-checkout", repo.toString(), dir.toString()));
    return argv;
  }

  /**
   * Back to {@code base}: git rewrites only files that differ, so the mtimes of untouched files
   * survive and make rebuilds only what a previous patch changed.
   */
  static List<List<String>> resetTo(Path dir, String base) {
    return List.of(git(dir, "reset", "-q", "--hard", base), git(dir, "clean", "-fdxq"));
  }

  /** Applies a -p1 patch (git or plain unified diff) to the work tree only. */
  static List<String> apply(Path dir, Path patch) {
    return git(dir, "apply", "--whitespace=nowarn", patch.toString());
  }

  /** The commit a ref names; fails for a ref that names no commit. */
  static List<String> revParse(Path repo, String ref) {
    return git(repo, "rev-parse", "--verify", "--quiet", ref + "^{commit}");
  }
}
