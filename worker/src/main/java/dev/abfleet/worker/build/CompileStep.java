package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSpec;

import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compiles a configured tree out of tree ({@code make -C src O=out}), reporting each object as
 * make announces it, then installs the modules (when the config has any) and asks the release.
 */
final class CompileStep {

  private static final Duration COMPILE_TIMEOUT = Duration.ofHours(4);
  private static final Duration SHORT_TIMEOUT = Duration.ofMinutes(10);

  private CompileStep() {}

  /**
   * What make produced, or the problem.
   *
   * @param image     the boot image in {@code out}
   * @param systemMap System.map in {@code out}
   * @param modules   the staged {@code INSTALL_MOD_PATH} (holding lib/modules/RELEASE), or null
   * @param release   {@code make kernelrelease}
   * @param objects   objects compiled by this build
   */
  record Outcome(Path image, Path systemMap, Path modules, String release, int objects, Problem problem) {
    static Outcome failed(Problem p) {
      return new Outcome(null, null, null, null, 0, p);
    }
  }

  /**
   * @param expected objects the last full build of this configuration compiled, passed on to the
   *                 listener (0 = unknown)
   * @param withModules true when the config has =m options
   * @param cache       the compiler cache, in every make call (kbuild re-runs its config when CC changes)
   */
  static Outcome compile(WarmTree tree, BuildSpec spec, boolean withModules, int expected, int jobs,
      Optional<CompilerCache> cache, StepRunner steps, BuildListener listener)
      throws InterruptedException, IOException {
    listener.phase("compile");
    List<String> targets = new ArrayList<>(List.of(BuildCommands.imageTarget(spec.arch())));
    if (withModules) {
      targets.add("modules");
    }
    int discarded = CrashMarker.arm(tree.out());
    if (discarded > 0) {
      steps.note("the last build of this tree stopped while compiling: " + discarded
          + " files it wrote are removed, so that make writes them whole");
    }
    CompileProgress progress = new CompileProgress();
    int[] reported = {-1};
    RunResult r = steps.runWatching("make", BuildCommands.make(spec.arch(), tree.src(), tree.out(), jobs, cache,
        spec.makeArgs(), targets.toArray(String[]::new)), COMPILE_TIMEOUT, chunk -> {
          int n = progress.feed(chunk);
          if (n != reported[0]) {
            reported[0] = n;
            listener.compiled(n, expected);
          }
        });
    if (!r.interrupted() && !r.timedOut() && r.launchError() == null) {
      CrashMarker.disarm(tree.out());
    }
    if (!r.succeeded()) {
      return Outcome.failed(makeProblem(r, tree));
    }
    Path modules = null;
    if (withModules) {
      listener.phase("modules");
      modules = tree.run().resolve("modules");
      RunResult install = steps.run("modules_install", BuildCommands.make(spec.arch(), tree.src(), tree.out(), 0,
          cache, spec.makeArgs(), "modules_install", "INSTALL_MOD_PATH=" + modules, "INSTALL_MOD_STRIP=1"),
          SHORT_TIMEOUT);
      if (!install.succeeded()) {
        return Outcome.failed(makeProblem(install, tree));
      }
    }
    RunResult release = steps.run("kernelrelease", BuildCommands.make(spec.arch(), tree.src(), tree.out(), 0,
        cache, spec.makeArgs(), "-s", "kernelrelease"), SHORT_TIMEOUT);
    if (!release.succeeded()) {
      return Outcome.failed(makeProblem(release, tree));
    }
    return new Outcome(tree.out().resolve(BuildCommands.imagePath(spec.arch())), tree.out().resolve("System.map"),
        modules, lastLine(release.stdoutTail()), progress.objects(), null);
  }

  /** A failed make: host trouble, else the first compile error. */
  static Problem makeProblem(RunResult r, WarmTree tree) throws IOException {
    Problem infra = TreeSetup.infraOf("make", r);
    if (infra != null) {
      return infra;
    }
    String stderr = Files.exists(r.stderr()) ? StepRunner.text(r.stderr()) : "";
    Problem fromFullErr = BuildErrors.infra(stderr);
    return fromFullErr != null ? fromFullErr : BuildErrors.compile(stderr, stderr,
        tree.src().toAbsolutePath().toString(), tree.out());
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines[lines.length - 1].strip();
  }
}
