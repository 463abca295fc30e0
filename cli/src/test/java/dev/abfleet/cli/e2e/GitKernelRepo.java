package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A kernel git repository made from Debian's linux-source-6.1 tarball plus five commits, the
 * third of which slows every stat() ({@code examples/kernel-build/slow-stat.patch}); the others
 * change comments only. Made once per test run, under the shared build cache's parent.
 */
final class GitKernelRepo {
  static final String CULPRIT_SUBJECT = "fs: 20 us more per stat()";

  private GitKernelRepo() {}

  /** The repository; the commit ids are {@link #commits(Path)}[0] (the tarball) to [5]. */
  static synchronized Path create() throws Exception {
    Path repo = SourceKernels.buildHome().resolveSibling("abfleet-e2e-linux.git");
    if (Files.exists(repo.resolve(".git/abfleet-e2e-complete"))) {
      return repo;
    }
    deleteRecursively(repo);
    Files.createDirectories(repo);
    run(repo, "tar", "-xf", SourceKernels.tarball().toString(), "--strip-components=1");
    git(repo, "init", "-q");
    // -f: Debian's tarball carries a .gitignore that ignores everything at the top level.
    git(repo, "add", "-A", "-f");
    git(repo, "commit", "-q", "-m", "linux-source-6.1 as packaged by Debian");
    edit(repo, "Documentation/process/howto.rst", "HOWTO do Linux kernel development", "HOWTO do Linux kernel"
        + " development (noted)");
    git(repo, "commit", "-q", "-am", "docs: a note in the howto");
    edit(repo, "fs/namei.c", " * Some corrections by tytso.", " * Some corrections by tytso (and others).");
    git(repo, "commit", "-q", "-am", "fs: a comment in namei");
    git(repo, "apply", SourceKernels.slowStatPatch().toString());
    git(repo, "commit", "-q", "-am", CULPRIT_SUBJECT);
    edit(repo, "fs/stat.c", "This function is a wrapper around vfs_getattr().", "This function wraps vfs_getattr().");
    git(repo, "commit", "-q", "-am", "fs: a comment in stat");
    edit(repo, "mm/filemap.c", " * This file handles the generic file mmap semantics", " * This file handles the"
        + " generic file mmap semantics,");
    git(repo, "commit", "-q", "-am", "mm: a comment in filemap");
    Files.writeString(repo.resolve(".git/abfleet-e2e-complete"), "");
    return repo;
  }

  /** Commit ids, oldest first. */
  static List<String> commits(Path repo) throws Exception {
    Path out = Files.createTempFile("git-log", ".txt");
    Process p = new ProcessBuilder("git", "-C", repo.toString(), "log", "--reverse", "--format=%H")
        .redirectOutput(out.toFile()).redirectErrorStream(false).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return Files.readAllLines(out);
  }

  private static void edit(Path repo, String file, String from, String to) throws IOException {
    Path p = repo.resolve(file);
    String text = Files.readString(p);
    assertThat(text).as(file).contains(from);
    Files.writeString(p, text.replaceFirst(java.util.regex.Pattern.quote(from), to));
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("git", "-c", "user.name=abfleet", "-c", "user.email=abfleet@localhost",
        "-c", "core.autocrlf=false", "-c", "gc.auto=0", "-C", repo.toString()));
    argv.addAll(List.of(args));
    run(repo, argv.toArray(String[]::new));
  }

  private static void run(Path dir, String... argv) throws Exception {
    Path log = Files.createTempFile("git-kernel-repo", ".log");
    Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as(String.join(" ", argv)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", argv) + ": " + Files.readString(log)).isZero();
  }

  private static void deleteRecursively(Path p) throws Exception {
    if (Files.exists(p)) {
      run(p.getParent(), "rm", "-rf", p.toString());
    }
  }
}
