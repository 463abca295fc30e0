package dev.abfleet.cli.build;

import dev.abfleet.config.Problem;
import dev.abfleet.config.SpecFile;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import dev.abfleet.worker.build.BuildManifest;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the client's commands share about kernel builds: where the build cache lives, how a
 * spec file's {@code build:} becomes the builder's {@link BuildSpec}, how a failure is told in
 * one line, and the provenance a built arm carries into the experiment.
 */
public final class KernelBuilds {

  /** System property naming the build cache (tests share one across a run); else ABFLEET_BUILD_HOME. */
  public static final String HOME_PROPERTY = "abfleet.build.home";

  private KernelBuilds() {}

  /** The build cache: -Dabfleet.build.home, $ABFLEET_BUILD_HOME, else $ABFLEET_HOME/builds. */
  public static Path home() {
    String prop = System.getProperty(HOME_PROPERTY);
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop);
    }
    String env = System.getenv("ABFLEET_BUILD_HOME");
    return env != null && !env.isBlank() ? Path.of(env) : ControllerSettings.abfleetHome().resolve("builds");
  }

  /**
   * The source a path names: a git repository (a directory with .git, or a bare one), an unpacked
   * tree (a directory with a top-level Makefile) or a tarball. {@code ref} only for git.
   */
  public static BuildSource source(Path path, String ref, String label) {
    if (Files.isDirectory(path)) {
      boolean git = Files.exists(path.resolve(".git")) || Files.isRegularFile(path.resolve("HEAD"));
      if (git) {
        return new BuildSource.Git(path, ref == null ? "HEAD" : ref);
      }
      if (ref != null) {
        throw new Problem(label + ": ref " + ref + " given, but " + path + " is not a git repository; drop ref or"
            + " point source at a git repository");
      }
      if (!Files.isRegularFile(path.resolve("Makefile"))) {
        throw new Problem(label + ": " + path + " is not a kernel tree (no Makefile at its top); give a kernel"
            + " source tarball, tree or git repository");
      }
      return new BuildSource.Tree(path);
    }
    if (Files.isRegularFile(path)) {
      if (ref != null) {
        throw new Problem(label + ": ref " + ref + " given, but " + path + " is a file, not a git repository;"
            + " drop ref");
      }
      return new BuildSource.Tarball(path);
    }
    throw new Problem(label + ": source " + path + " does not exist" + (Files.exists(path) ? " as a file or directory"
        : "") + "; give a kernel source tarball (e.g. /usr/src/linux-source-6.1.tar.xz after apt-get install"
        + " linux-source-6.1), tree or git repository");
  }

  /** A spec file's {@code build:} block as the builder's input. */
  public static BuildSpec spec(SpecFile.Build b, String label) {
    for (Path p : b.patches()) {
      readable(p, label, "patch");
    }
    for (Path p : b.configFragments()) {
      readable(p, label, "config fragment");
    }
    return new BuildSpec(source(b.source(), b.ref(), label), b.patches(), b.config(), b.configFragments(),
        b.configLines(), b.arch(), b.makeArgs());
  }

  /**
   * Command-line config fragments: each a {@code CONFIG_X=y} line or a readable fragment file.
   *
   * @param option the option that gave them, for messages
   */
  public record Fragments(List<Path> files, List<String> lines) {
    public static Fragments of(List<String> given, String option) {
      List<Path> files = new ArrayList<>();
      List<String> lines = new ArrayList<>();
      for (String f : given) {
        if (BuildSpec.CONFIG_LINE.matcher(f.trim()).matches()) {
          lines.add(f.trim());
        } else {
          readable(Path.of(f), option, "config fragment");
          files.add(Path.of(f));
        }
      }
      return new Fragments(files, lines);
    }
  }

  /** Make arguments as variables only. */
  public static void checkMakeArgs(List<String> args, String option) {
    for (String a : args) {
      if (!BuildSpec.MAKE_ARG.matcher(a).matches()) {
        throw new Problem(option + " " + a + ": expected a make variable, NAME=value, e.g. KCFLAGS=-O2");
      }
    }
  }

  /** A readable regular file, or a problem naming it. */
  public static void readable(Path p, String label, String what) {
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new Problem(label + ": " + what + " " + p + " is not a readable file");
    }
  }

  /**
   * One line for a failed build: who, what kind, where and the first error, e.g. "arm 'slow':
   * build failed (patch): slow.patch does not apply: error: patch failed: fs/stat.c:123".
   */
  public static String failureLine(String who, BuildResult.Failed f) {
    String kind = f.kind().name().toLowerCase(java.util.Locale.ROOT);
    String where = f.file() == null || f.firstError().contains(f.file()) ? "" : f.file() + ": ";
    String log = f.log() == null ? "" : " (log: " + f.log() + ")";
    return who + ": build failed (" + kind + "): " + where + f.firstError() + log;
  }

  /** The provenance a report shows for a built kernel. */
  public static KernelBuild provenance(BuildManifest m) {
    return KernelBuild.newBuilder()
        .setKey(m.key())
        .setSource(m.sourceLabel())
        .setSourceDigest(m.sourceDigest())
        .addAllPatches(m.patchNames())
        .addAllPatchDigests(m.patchDigests())
        .setConfig(configName(m.configBase()))
        .setArch(m.arch())
        .setToolchain(m.toolchain())
        .setRelease(m.release())
        .build();
  }

  /** A config base as reports show it: a target name as is, a file by its name. */
  private static String configName(String base) {
    return base.contains("/") ? Path.of(base).getFileName().toString() : base;
  }

  /** Problems of the user's input end the command with exit 2; host trouble is not the input's fault. */
  public static boolean usersFault(BuildResult.Failed f) {
    return f.kind() != BuildResult.Kind.INFRA;
  }
}
