package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import static dev.abfleet.worker.build.BuildResult.Kind.INFRA;
import static dev.abfleet.worker.build.BuildResult.Kind.PATCH;
import static dev.abfleet.worker.build.BuildResult.Kind.SOURCE;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Gets a warm tree's {@code src} to the state a build needs: prepared once from the source (a
 * git work tree whose base commit is the unpatched source), then for every build reset to that
 * base and patched. A tree that cannot be reset (damaged on disk) is prepared again.
 */
final class TreeSetup {

  private static final Duration UNPACK_TIMEOUT = Duration.ofMinutes(30);
  private static final Duration GIT_TIMEOUT = Duration.ofMinutes(30);

  private TreeSetup() {}

  /** Prepares {@code tree} from {@code source} (resolved to {@code sourceDigest}); null on success. */
  static Problem prepare(WarmTree tree, BuildSource source, String sourceDigest, StepRunner steps,
      BuildListener listener) throws InterruptedException, IOException {
    tree.clear();
    Path src = tree.src();
    Files.createDirectories(src);
    Problem p;
    if (source instanceof BuildSource.Git g) {
      listener.phase("checkout");
      p = checkout(g, sourceDigest, src, steps);
    } else {
      p = source instanceof BuildSource.Tarball t ? unpack(t, src, steps, listener) : copy((BuildSource.Tree) source,
          src, steps, listener);
      if (p == null) {
        listener.phase("import");
        p = runAll("import", BuildCommands.importTree(src), steps, INFRA);
      }
    }
    if (p != null) {
      return p;
    }
    RunResult head = steps.run("git-head", BuildCommands.git(src, "rev-parse", "HEAD"), GIT_TIMEOUT);
    if (!head.succeeded()) {
      return failure("git rev-parse HEAD", head, INFRA);
    }
    tree.setBase(head.stdoutTail().strip());
    return null;
  }

  /**
   * Resets a prepared {@code tree} to its base commit; false when that fails (a damaged work
   * tree), and the tree is then marked for preparing again.
   */
  static boolean reset(WarmTree tree, StepRunner steps) throws InterruptedException, IOException {
    return reset(tree, tree.base(), steps);
  }

  /**
   * Moves a prepared git tree to {@code commit} (fetched from its repository first when the tree
   * does not have it), which becomes its base: git rewrites only the files that differ, so make
   * rebuilds what changed between the two commits and nothing else. False when that fails, and
   * the tree is then marked for preparing again.
   */
  static boolean reset(WarmTree tree, String commit, StepRunner steps) throws InterruptedException, IOException {
    if (!commit.equals(tree.base())
        && !steps.run("has-commit", BuildCommands.git(tree.src(), "cat-file", "-e", commit + "^{commit}"),
            GIT_TIMEOUT).succeeded()
        && !steps.run("fetch", BuildCommands.git(tree.src(), "fetch", "-q", "origin", commit), GIT_TIMEOUT)
            .succeeded()) {
      tree.forgetBase();
      return false;
    }
    if (runAll("reset", BuildCommands.resetTo(tree.src(), commit), steps, INFRA) == null) {
      tree.setBase(commit);
      return true;
    }
    tree.forgetBase();
    return false;
  }

  /** Applies {@code patches} in order to a tree at its base; null on success. */
  static Problem patch(WarmTree tree, List<Path> patches, StepRunner steps, BuildListener listener)
      throws InterruptedException, IOException {
    if (!patches.isEmpty()) {
      listener.phase("patch");
    }
    for (Path patch : patches) {
      RunResult r = steps.run("apply", BuildCommands.apply(tree.src(), patch.toAbsolutePath()), GIT_TIMEOUT);
      if (!r.succeeded()) {
        Problem infra = infraOf("git apply", r);
        return infra != null ? infra : new Problem(PATCH, patch.toString(),
            BuildErrors.patchError(patch.getFileName().toString(), StepRunner.text(r.stderr())));
      }
    }
    return null;
  }

  private static Problem unpack(BuildSource.Tarball t, Path src, StepRunner steps, BuildListener listener)
      throws InterruptedException {
    listener.phase("unpack");
    RunResult r = steps.run("unpack", BuildCommands.untar(t.file().toAbsolutePath(), src), UNPACK_TIMEOUT);
    if (!r.succeeded()) {
      return failure("unpacking " + t.file(), r, SOURCE);
    }
    if (!Files.isRegularFile(src.resolve("Makefile"))) {
      return new Problem(SOURCE, t.file().toString(), t.file() + " holds no kernel tree: no Makefile under its"
          + " one top-level directory (the archive must hold a single directory such as linux-6.1/)");
    }
    return null;
  }

  /** Copies a tree without its .git and cleans it if it was built in place (an O= build refuses such a tree). */
  private static Problem copy(BuildSource.Tree t, Path src, StepRunner steps, BuildListener listener)
      throws InterruptedException, IOException {
    listener.phase("import");
    RunResult r = steps.run("copy", List.of("cp", "-a", t.dir().toAbsolutePath() + "/.", src.toString()),
        UNPACK_TIMEOUT);
    if (!r.succeeded()) {
      return failure("copying " + t.dir(), r, SOURCE);
    }
    CacheFiles.deleteTree(src.resolve(".git"));
    if (Files.exists(src.resolve(".config")) || Files.isDirectory(src.resolve("include/config"))) {
      RunResult clean = steps.run("mrproper", BuildCommands.make("x86_64", src, src, 0, List.of(), "mrproper"),
          UNPACK_TIMEOUT);
      if (!clean.succeeded()) {
        return failure("make mrproper in the copy of " + t.dir(), clean, SOURCE);
      }
    }
    return null;
  }

  private static Problem checkout(BuildSource.Git g, String commit, Path src, StepRunner steps)
      throws InterruptedException {
    RunResult clone = steps.run("clone", BuildCommands.cloneShared(g.repo().toAbsolutePath(), src), GIT_TIMEOUT);
    if (!clone.succeeded()) {
      return failure("git clone " + g.repo(), clone, SOURCE);
    }
    List<String> checkout = BuildCommands.git(src, "checkout", "-q", "-f", "--detach", commit);
    if (steps.run("checkout", checkout, GIT_TIMEOUT).succeeded()) {
      return null;
    }
    // A commit no branch or tag of the repository reaches is not in the clone until fetched.
    RunResult fetch = steps.run("fetch", BuildCommands.git(src, "fetch", "-q", "origin", commit), GIT_TIMEOUT);
    if (!fetch.succeeded()) {
      return failure("git fetch " + commit + " from " + g.repo(), fetch, SOURCE);
    }
    RunResult again = steps.run("checkout", checkout, GIT_TIMEOUT);
    return again.succeeded() ? null : failure("git checkout " + commit, again, SOURCE);
  }

  private static Problem runAll(String name, List<List<String>> commands, StepRunner steps, BuildResult.Kind kind)
      throws InterruptedException {
    for (List<String> argv : commands) {
      RunResult r = steps.run(name, argv, GIT_TIMEOUT);
      if (!r.succeeded()) {
        return failure(String.join(" ", argv.subList(argv.indexOf("-C") + 2, argv.size())), r, kind);
      }
    }
    return null;
  }

  /** A failed preparation command: host trouble if its output shows some, else {@code kind}. */
  static Problem failure(String what, RunResult r, BuildResult.Kind kind) {
    Problem infra = infraOf(what, r);
    if (infra != null) {
      return infra;
    }
    String tail = r.stderrTail().isBlank() ? r.stdoutTail() : r.stderrTail();
    return new Problem(kind, null, what + " failed (exit " + r.exitCode() + "): " + TextTail.lastLines(tail, 3));
  }

  /** A command that could not start, timed out, or whose output shows host trouble; else null. */
  static Problem infraOf(String what, RunResult r) {
    if (r.launchError() != null) {
      String tool = r.launchError().replaceFirst("^cannot start (\\S+):.*$", "$1");
      return Problem.infra(what + ": " + r.launchError() + "; fix: apt-get install " + BuildErrors.packageOf(tool));
    }
    if (r.timedOut()) {
      return Problem.infra(what + " was killed at its timeout after " + r.wall().toMinutes() + " min");
    }
    return BuildErrors.infra(r.outputTail());
  }
}
