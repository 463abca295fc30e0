package dev.abfleet.cli.bisect;

import dev.abfleet.model.Arch;

import dev.abfleet.cli.GitBisectRun;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.build.KernelBuilds;
import dev.abfleet.config.Problem;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;

/** Checks {@code abfleet bisect --git}'s options and runs it. */
final class GitBisectOptions {
  private GitBisectOptions() {}

  static int run(BisectCommand c, PrintStream out, PrintStream err) {
    if (c.good == null || c.bad == null) {
      throw new Problem("--git needs --good REF and --bad REF (the last good and the first bad commit)");
    }
    if (c.metric == null) {
      throw new Problem("--git needs --metric M, the metric that regressed, e.g. --metric metadata_stat");
    }
    if (!c.kernels.isEmpty() || c.attach != null || c.cancel != null || c.list) {
      throw new Problem("--git bisects commits; drop the kernel list, --attach, --cancel and --list");
    }
    if (!Files.isDirectory(c.git)) {
      throw new Problem("--git " + c.git + ": not a directory; give a kernel git repository");
    }
    if (c.config != null && (c.config.endsWith(".yaml") || c.config.endsWith(".yml"))) {
      throw new Problem("--config " + c.config + ": with --git, --config is the kernel config (abfleet-minimal,"
          + " tinyconfig, defconfig or a .config file); pass fleet.yaml as --fleet-config");
    }
    if (!Arch.NAMES.contains(c.arch)) {
      throw new Problem("--arch " + c.arch + ": expected x86_64 or aarch64");
    }
    if (c.pairs != null && c.pairs < 2) {
      throw new Problem("--pairs " + c.pairs + ": a probe needs at least 2 pairs");
    }
    BisectStart.checkDesign(c.config(), c.pairs, c.looks, c.alpha, err);
    c.patches.forEach(p -> KernelBuilds.readable(p, "--patch", "patch"));
    KernelBuilds.Fragments f = KernelBuilds.Fragments.of(c.fragments, "--config-fragment");
    // The source is replaced by each probe's commit.
    BuildSpec build = new BuildSpec(new BuildSource.Git(c.git, c.bad), c.patches, c.config, f.files(), f.lines(),
        c.arch, List.of());
    GitBisectRun.Options o = new GitBisectRun.Options(c.git.toAbsolutePath().normalize(), c.good, c.bad, c.metric,
        build, c.config(), c.benchmarkName, c.pairs, c.pairs != null ? null : c.looks, c.threshold, c.alpha,
        c.controller, c.localWorkers);
    try {
      return GitBisectRun.run(o, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("abfleet: bisect interrupted");
      return ExitCodes.FAILED;
    }
  }
}
