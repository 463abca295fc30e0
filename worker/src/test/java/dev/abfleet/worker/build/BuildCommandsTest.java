package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildCommandsTest {

  static final Path SRC = Path.of("/b/trees/t/src");
  static final Path OUT = Path.of("/b/trees/t/out");

  @Test
  void makeBuildsOutOfTreeWithAFixedIdentityAndTheUsersArgumentsLast() {
    List<String> argv = BuildCommands.make("x86_64", SRC, OUT, 2, List.of("LOCALVERSION=-ab"), "bzImage");

    assertThat(argv).containsExactly("env", "ARCH=x86_64", "KBUILD_BUILD_USER=abfleet", "KBUILD_BUILD_HOST=abfleet",
        "KBUILD_BUILD_TIMESTAMP=" + BuildCommands.TIMESTAMP, "KBUILD_BUILD_VERSION=1", "make", "-C", SRC.toString(),
        "O=" + OUT, "LOCALVERSION=", "-j2", "LOCALVERSION=-ab", "bzImage");
  }

  @Test
  void withACompilerCacheMakeCompilesThroughCcacheUnlessTheUserNamesACompiler() {
    CompilerCache cache = CompilerCache.of(Path.of("/b"), null, tool -> true).orElseThrow();

    List<String> argv = BuildCommands.make("x86_64", SRC, OUT, 2, java.util.Optional.of(cache), List.of("CC=clang"),
        "bzImage");

    assertThat(argv).containsSubsequence("env", "CCACHE_DIR=/b/ccache", "CCACHE_BASEDIR=/b/trees", "make",
        "LOCALVERSION=", "CC=ccache gcc", "-j2", "CC=clang", "bzImage");
    assertThat(cache.compilerVariable("aarch64")).isEqualTo("CC=ccache aarch64-linux-gnu-gcc");
  }

  @Test
  void theCompilerCacheIsOnWhenCcacheIsInstalledAndOffWhenAskedOrAbsent() {
    Path home = Path.of("/b");
    assertThat(CompilerCache.of(home, " ", tool -> true)).contains(new CompilerCache(Path.of("/b/ccache"),
        Path.of("/b/trees")));
    assertThat(CompilerCache.of(home, "/var/cache/cc", tool -> true).orElseThrow().dir())
        .isEqualTo(Path.of("/var/cache/cc"));
    assertThat(CompilerCache.of(home, "OFF", tool -> true)).isEmpty();
    assertThat(CompilerCache.of(home, null, tool -> !tool.equals("ccache"))).isEmpty();
  }

  @Test
  void arm64BuildsCrossWithItsOwnArchAndImage() {
    List<String> argv = BuildCommands.make("aarch64", SRC, OUT, 0, List.of(), BuildCommands.imageTarget("aarch64"));

    assertThat(argv).contains("ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-").endsWith("Image")
        .noneMatch(a -> a.startsWith("-j"));
    assertThat(BuildCommands.imagePath("aarch64")).isEqualTo("arch/arm64/boot/Image");
  }

  @Test
  void resetRewritesOnlyWhatDiffersAndCleansUntrackedFiles() {
    assertThat(BuildCommands.resetTo(SRC, "abc")).extracting(argv -> argv.subList(argv.indexOf("-C") + 2, argv.size()))
        .containsExactly(List.of("reset", "-q", "--hard", "abc"), List.of("clean", "-fdxq"));
  }

  @Test
  void gitCommandsCarryTheirIdentityAndNoLineEndingConversion() {
    assertThat(BuildCommands.apply(SRC, Path.of("/p/x.patch"))).containsSubsequence("git", "-c",
        "core.autocrlf=false", "-c", "user.name=abfleet", "-c", "user.email=abfleet@localhost", "-C", SRC.toString(),
        "apply", "/p/x.patch");
  }
}
