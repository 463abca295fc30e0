package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Predicate;

/** The host tools a kernel build needs: their identity (part of every key) and whether they are there. */
final class Toolchain {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private Toolchain() {}

  /**
   * First line of the compiler's {@code --version}, "; ", first line of make's; a tool that
   * cannot be run reads {@code <tool>: not found} (the build then fails as INFRA, naming it).
   */
  static String identity(CommandRunner runner, Path workDir, String arch) {
    return firstLine(runner, workDir, BuildCommands.compiler(arch)) + "; " + firstLine(runner, workDir, "make");
  }

  private static String firstLine(CommandRunner runner, Path workDir, String tool) {
    RunResult r = runner.run(List.of(tool, "--version"), workDir, tool + "-version", PROBE_TIMEOUT);
    if (!r.succeeded()) {
      return tool + ": not found";
    }
    try {
      return Files.readAllLines(r.stdout()).stream().findFirst().orElse(tool + ": no version").strip();
    } catch (IOException e) {
      return tool + ": no version";
    }
  }

  /** The tools a build of {@code arch} from {@code source} runs, for {@link #missing}. */
  static List<String> needed(String arch, BuildSource source) {
    List<String> tools = new ArrayList<>(List.of("make", "gcc", "flex", "bison", "bc", "perl", "git"));
    if (arch.equals("aarch64")) {
      tools.add(BuildCommands.compiler(arch));
    }
    if (source instanceof BuildSource.Tarball t) {
      tools.add("tar");
      String name = t.file().getFileName().toString();
      if (name.endsWith(".xz")) {
        tools.add("xz");
      } else if (name.endsWith(".gz") || name.endsWith(".tgz")) {
        tools.add("gzip");
      }
    } else if (source instanceof BuildSource.Tree) {
      tools.add("cp");
    }
    return tools;
  }

  /**
   * An INFRA problem naming the needed tools that {@code onPath} does not find and the packages
   * that install them, or null when all are there.
   */
  static Problem missing(List<String> tools, Predicate<String> onPath) {
    List<String> absent = tools.stream().filter(t -> !onPath.test(t)).toList();
    if (absent.isEmpty()) {
      return null;
    }
    LinkedHashSet<String> packages = new LinkedHashSet<>();
    absent.forEach(t -> packages.add(BuildErrors.packageOf(t)));
    return Problem.infra("not found on PATH: " + String.join(", ", absent) + "; fix: apt-get install "
        + String.join(" ", packages));
  }
}
