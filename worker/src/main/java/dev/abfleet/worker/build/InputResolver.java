package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.model.BuildSpec;

import static dev.abfleet.worker.build.BuildResult.Kind.CONFIG;
import static dev.abfleet.worker.build.BuildResult.Kind.PATCH;
import static dev.abfleet.worker.build.BuildResult.Kind.SOURCE;

import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.guest.GuestArch;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@link BuildSpec} into the identities of its inputs ({@link BuildKey}): hashes files,
 * resolves a git ref, asks the toolchain its version. Throws {@link BuildInputException} naming
 * the input that cannot be read and the fix.
 */
final class InputResolver {

  /** Config bases that are make targets of every kernel tree. */
  static final Set<String> MAKE_TARGETS = Set.of("tinyconfig", "defconfig", "allnoconfig");

  private static final Duration GIT_TIMEOUT = Duration.ofMinutes(2);

  private final CommandRunner runner;

  InputResolver(CommandRunner runner) {
    this.runner = runner;
  }

  /**
   * The spec's inputs, resolved.
   *
   * @param sourceLabel a short human name of the source for the manifest
   */
  record Resolved(BuildSpec spec, BuildKey inputs, String sourceLabel) {
    String key() {
      return inputs.key();
    }
  }

  /** Resolves every input; {@code workDir} receives the logs of git and the version probes. */
  Resolved resolve(BuildSpec spec, Path workDir) {
    if (GuestArch.fromWire(spec.arch()).isEmpty()) {
      throw new BuildInputException(CONFIG, null, "unknown arch '" + spec.arch() + "'; expected x86_64 or aarch64");
    }
    for (String line : spec.configLines()) {
      if (!BuildSpec.CONFIG_LINE.matcher(line.strip()).matches()) {
        throw new BuildInputException(CONFIG, null, "config line '" + line
            + "' is neither CONFIG_NAME=value nor '# CONFIG_NAME is not set'");
      }
    }
    String label;
    String digest;
    String treeSource = null;
    if (spec.source() instanceof BuildSource.Tarball t) {
      label = t.file().getFileName().toString();
      digest = sha256(t.file(), SOURCE, "source tarball");
    } else if (spec.source() instanceof BuildSource.Tree t) {
      label = t.dir().toAbsolutePath().normalize().getFileName() + " (tree)";
      digest = TreeDigest.of(t.dir());
    } else if (spec.source() instanceof BuildSource.Git g) {
      digest = commitOf(g, workDir);
      label = g.repo().toAbsolutePath().normalize().getFileName() + "@" + digest.substring(0, 12);
      // One repository reached through a symlink (~/linux -> /srv/linux) is one warm tree.
      treeSource = "git:" + realPath(g.repo());
    } else {
      throw new BuildInputException(SOURCE, null, "no source: pass a tarball, a tree or a git repository and ref");
    }
    List<String> patches = new ArrayList<>();
    spec.patches().forEach(p -> patches.add(sha256(p, PATCH, "patch")));
    List<String> fragments = new ArrayList<>();
    spec.configFragments().forEach(f -> fragments.add(sha256(f, CONFIG, "config fragment")));
    BuildKey key = new BuildKey(digest, patches, configBaseId(spec), fragments,
        spec.configLines().stream().map(String::strip).toList(), spec.arch(), spec.makeArgs(),
        Toolchain.identity(runner, workDir, spec.arch()), treeSource == null ? digest : treeSource);
    return new Resolved(spec, key, label);
  }

  /** The config base's identity: a make target's name, the shipped fragment's or the file's digest. */
  static String configBaseId(BuildSpec spec) {
    String base = spec.configBase();
    if (MAKE_TARGETS.contains(base)) {
      return base;
    }
    if (base.equals(BuildSpec.DEFAULT_CONFIG_BASE)) {
      return base + ":" + Sha256.ofParts(Sha256.utf8(MinimalFragment.text(spec.arch())));
    }
    Path file = Path.of(base);
    if (!Files.isRegularFile(file)) {
      throw new BuildInputException(CONFIG, base, "unknown config base '" + base + "': expected tinyconfig,"
          + " defconfig, allnoconfig, abfleet-minimal or the path of a readable .config file");
    }
    return "file:" + sha256(file, CONFIG, "config base");
  }

  private String commitOf(BuildSource.Git g, Path workDir) {
    if (!Files.isDirectory(g.repo())) {
      throw new BuildInputException(SOURCE, g.repo().toString(), "git repository " + g.repo()
          + " does not exist; pass the directory of a local clone");
    }
    RunResult r = runner.run(BuildCommands.revParse(g.repo().toAbsolutePath(), g.ref()), workDir, "git-rev-parse",
        GIT_TIMEOUT);
    if (r.launchError() != null) {
      throw new BuildInputException(BuildResult.Kind.INFRA, null, "git cannot run (" + r.launchError()
          + "); fix: apt-get install git");
    }
    String commit = r.stdoutTail().strip();
    if (!r.succeeded() || !commit.matches("[0-9a-f]{40,64}")) {
      throw new BuildInputException(SOURCE, g.repo().toString(), "'" + g.ref() + "' names no commit in "
          + g.repo() + " (" + (r.stderrTail().isBlank() ? "git rev-parse found nothing" : r.stderrTail().strip())
          + "); pass a branch, tag or commit id of that repository, fetching it first if it is remote");
    }
    return commit;
  }

  private static String sha256(Path file, BuildResult.Kind kind, String what) {
    try {
      return Sha256.ofFile(file);
    } catch (IOException e) {
      throw new BuildInputException(kind, file.toString(), "cannot read " + what + " " + file + " ("
          + e.getClass().getSimpleName() + ": " + e.getMessage() + "); check the path and its permissions");
    }
  }

  /** The repository's path with symlinks resolved; as given (absolute) when it cannot be resolved. */
  private static Path realPath(Path repo) {
    try {
      return repo.toRealPath();
    } catch (java.io.IOException e) {
      return repo.toAbsolutePath().normalize();
    }
  }
}
