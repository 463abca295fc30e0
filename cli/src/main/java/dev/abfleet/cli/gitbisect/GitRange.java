package dev.abfleet.cli.gitbisect;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The commits of a bisect: the good endpoint, then the first-parent commits up to and including
 * the bad one, each with its subject line (read with git; argv only).
 */
public record GitRange(Path repo, List<Commit> commits) {
  private static final Duration GIT_TIMEOUT = Duration.ofMinutes(2);

  public GitRange {
    commits = List.copyOf(commits);
  }

  /** One commit: its full id and subject. */
  public record Commit(String id, String subject) {
    public String shortId() {
      return id.substring(0, Math.min(12, id.length()));
    }
  }

  /** Reads {@code good..bad} (first parent) of {@code repo}; the good commit must be an ancestor of the bad one. */
  public static GitRange read(CommandRunner git, Path repo, String good, String bad, Path scratch) {
    String goodId = commitId(git, repo, good, "--good", scratch);
    String badId = commitId(git, repo, bad, "--bad", scratch);
    RunResult ancestor = run(git, scratch, "git", "-C", repo.toString(), "merge-base", "--is-ancestor", goodId, badId);
    if (ancestor.exitCode() != 0) {
      throw new Problem("--good " + good + " is not an ancestor of --bad " + bad + " in " + repo + "; give a good"
          + " commit older than the bad one on its history");
    }
    RunResult list = run(git, scratch, "git", "-C", repo.toString(), "log", "--first-parent", "--reverse",
        "--format=%H %s", goodId + ".." + badId);
    if (!list.succeeded()) {
      throw new Problem("git log " + good + ".." + bad + " in " + repo + " failed: " + list.outputTail());
    }
    List<String> lines = read(list.stdout()); // before the next git command writes the same file
    List<Commit> commits = new ArrayList<>();
    commits.add(new Commit(goodId, subject(git, repo, goodId, scratch)));
    for (String line : lines) {
      int space = line.indexOf(' ');
      commits.add(space < 0 ? new Commit(line, "") : new Commit(line.substring(0, space), line.substring(space + 1)));
    }
    if (commits.size() < 2) {
      throw new Problem("--good " + good + " and --bad " + bad + " are the same commit; nothing to bisect");
    }
    if (!commits.get(commits.size() - 1).id().equals(badId)) {
      throw new Problem("--bad " + bad + " is not on the first-parent line from --good " + good + "; bisect follows"
          + " first parents: give the merge commit that brought it in");
    }
    return new GitRange(repo, commits);
  }

  private static String commitId(CommandRunner git, Path repo, String ref, String option, Path scratch) {
    RunResult r = run(git, scratch, "git", "-C", repo.toString(), "rev-parse", "--verify", "--quiet", ref + "^{commit}");
    if (!r.succeeded()) {
      throw new Problem(option + " " + ref + ": not a commit of " + repo + "; give a branch, tag or commit id");
    }
    return read(r.stdout()).get(0).strip();
  }

  private static String subject(CommandRunner git, Path repo, String id, Path scratch) {
    RunResult r = run(git, scratch, "git", "-C", repo.toString(), "log", "-1", "--format=%s", id);
    return r.succeeded() ? String.join(" ", read(r.stdout())).strip() : "";
  }

  private static RunResult run(CommandRunner git, Path scratch, String... argv) {
    RunResult r = git.run(List.of(argv), scratch, "git", GIT_TIMEOUT);
    if (r.launchError() != null) {
      throw new Problem("cannot run git: " + r.launchError() + "; apt-get install git");
    }
    return r;
  }

  private static List<String> read(Path file) {
    try {
      return file == null || !Files.exists(file) ? List.of() : Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
