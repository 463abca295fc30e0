package dev.abfleet.worker.build;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * ccache for the compile step, shared by every warm tree of a build home. Warm trees are keyed
 * by source and configuration, so the same objects are compiled in several of them: a bisect's
 * git tree and the release tarball's tree, two arms whose make arguments differ. With the trees'
 * parent as ccache's base directory the absolute paths kbuild passes to gcc become relative,
 * and a compile already done in one tree is a cache hit in another.
 *
 * <p>ccache gives the compiler's own output, so the build key does not depend on it: an
 * artifact built with or without it is the same artifact.
 *
 * @param dir     the cache ({@code CCACHE_DIR})
 * @param baseDir the warm trees' parent ({@code CCACHE_BASEDIR})
 */
record CompilerCache(Path dir, Path baseDir) {

  /** The environment variable that turns the cache off ({@code off}) or moves it (a directory). */
  static final String SETTING = "ABFLEET_BUILD_CCACHE";

  /**
   * The cache of the build home {@code home}: {@code home/ccache} when ccache is installed,
   * another directory when {@code setting} names one, none when it is {@code off} or ccache is
   * not installed.
   */
  static Optional<CompilerCache> of(Path home, String setting, Predicate<String> onPath) {
    String s = setting == null ? "" : setting.strip();
    if (s.equalsIgnoreCase("off") || !onPath.test("ccache")) {
      return Optional.empty();
    }
    Path dir = s.isEmpty() ? home.resolve("ccache") : Path.of(s);
    return Optional.of(new CompilerCache(dir.toAbsolutePath(), home.resolve("trees").toAbsolutePath()));
  }

  /** Variables for {@code env}: where the cache is and which paths it makes relative. */
  List<String> environment() {
    return List.of("CCACHE_DIR=" + dir, "CCACHE_BASEDIR=" + baseDir);
  }

  /** The make variable that compiles through ccache with the compiler of {@code arch}. */
  String compilerVariable(String arch) {
    return "CC=ccache " + BuildCommands.compiler(arch);
  }

  /** One line for the build log. */
  String describe() {
    return "compiler cache: ccache in " + dir + " (paths under " + baseDir + " hashed as relative; "
        + SETTING + "=off turns it off)";
  }
}
