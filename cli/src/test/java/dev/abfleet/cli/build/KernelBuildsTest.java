package dev.abfleet.cli.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelBuildsTest {
  @TempDir
  Path dir;

  @Test
  void tellsTarballsTreesAndGitRepositoriesApart() throws Exception {
    Path tarball = Files.writeString(dir.resolve("linux.tar.xz"), "x");
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.writeString(tree.resolve("Makefile"), "all:\n");
    Path repo = Files.createDirectories(dir.resolve("repo/.git")).getParent();

    assertThat(KernelBuilds.source(tarball, null, "--source")).isEqualTo(new BuildSource.Tarball(tarball));
    assertThat(KernelBuilds.source(tree, null, "--source")).isEqualTo(new BuildSource.Tree(tree));
    assertThat(KernelBuilds.source(repo, null, "--source")).isEqualTo(new BuildSource.Git(repo, "HEAD"));
    assertThat(KernelBuilds.source(repo, "v6.1", "--source")).isEqualTo(new BuildSource.Git(repo, "v6.1"));
  }

  @Test
  void aRefOnlyGoesWithAGitRepository() throws Exception {
    Path tarball = Files.writeString(dir.resolve("linux.tar.xz"), "x");
    assertThatThrownBy(() -> KernelBuilds.source(tarball, "v6.1", "--source")).isInstanceOf(Problem.class)
        .hasMessageContaining("is a file, not a git repository; drop ref");
  }

  @Test
  void aMissingSourceSaysWhereLinuxSourceComesFrom() {
    assertThatThrownBy(() -> KernelBuilds.source(dir.resolve("nope"), null, "--source")).isInstanceOf(Problem.class)
        .hasMessageContaining("does not exist").hasMessageContaining("apt-get install linux-source-6.1");
  }

  @Test
  void aDirectoryThatIsNoKernelTreeIsRefused() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> KernelBuilds.source(empty, null, "--source")).isInstanceOf(Problem.class)
        .hasMessageContaining("is not a kernel tree");
  }

  @Test
  void aFailureIsOneLineWithWhoKindFileAndFirstError() {
    BuildResult.Failed compile = new BuildResult.Failed("k", BuildResult.Kind.COMPILE, "fs/stat.c",
        "fs/stat.c:160:22: error: expected expression before ';' token", Path.of("/b/failed/k/build.log"));
    assertThat(KernelBuilds.failureLine("arm 'slow'", compile)).isEqualTo("arm 'slow': build failed (compile):"
        + " fs/stat.c:160:22: error: expected expression before ';' token (log: /b/failed/k/build.log)");

    BuildResult.Failed patch = new BuildResult.Failed("k", BuildResult.Kind.PATCH, "slow.patch",
        "slow.patch: error: patch failed: fs/stat.c:155", null);
    assertThat(KernelBuilds.failureLine("arm 'slow'", patch))
        .isEqualTo("arm 'slow': build failed (patch): slow.patch: error: patch failed: fs/stat.c:155")
        .doesNotContain("\n");
    assertThat(KernelBuilds.usersFault(patch)).isTrue();
    assertThat(KernelBuilds.usersFault(new BuildResult.Failed("k", BuildResult.Kind.INFRA, null, "disk full", null)))
        .isFalse();
  }
}
