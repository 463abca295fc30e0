package dev.abfleet.cli.gitbisect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitRangeTest {
  @TempDir
  Path dir;
  Path repo;
  Path scratch;

  @BeforeEach
  void repository() throws Exception {
    repo = Files.createDirectories(dir.resolve("linux"));
    scratch = Files.createDirectories(dir.resolve("scratch"));
    git("init", "-q");
    for (String subject : List.of("base", "fs: one", "fs: two", "mm: three")) {
      Files.writeString(repo.resolve("file"), subject + "\n");
      git("add", "-A");
      git("commit", "-q", "-m", subject);
    }
  }

  @Test
  void listsTheGoodCommitThenEachFirstParentCommitUpToTheBadOneWithSubjects() {
    GitRange r = GitRange.read(new ProcessRunner(), repo, "HEAD~3", "HEAD", scratch);

    assertThat(r.commits()).extracting(GitRange.Commit::subject).containsExactly("base", "fs: one", "fs: two",
        "mm: three");
    assertThat(r.commits()).allSatisfy(c -> assertThat(c.id()).matches("[0-9a-f]{40}"));
  }

  @Test
  void aGoodCommitAfterTheBadOneIsRefused() {
    assertThatThrownBy(() -> GitRange.read(new ProcessRunner(), repo, "HEAD", "HEAD~2", scratch))
        .isInstanceOf(Problem.class).hasMessageContaining("is not an ancestor of --bad");
  }

  @Test
  void anUnknownRefIsRefusedWithTheOption() {
    assertThatThrownBy(() -> GitRange.read(new ProcessRunner(), repo, "v9.9", "HEAD", scratch))
        .isInstanceOf(Problem.class).hasMessageContaining("--good v9.9: not a commit of");
  }

  private void git(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@localhost", "-C",
        repo.toString()));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("git.log").toFile())
        .start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("git.log"))).isZero();
  }
}
