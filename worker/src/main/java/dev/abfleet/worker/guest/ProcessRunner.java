package dev.abfleet.worker.guest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Thin runner for short host tools (gcc): stdout and stderr go to one log file, so the child
 * can never block on a full pipe, and the tail of that log explains failures.
 */
final class ProcessRunner {

  /**
   * How a tool ended.
   *
   * @param exitCode the exit status, or -1 if it was killed on timeout
   * @param output the combined stdout and stderr (possibly cut to the last lines)
   */
  record Result(int exitCode, String output) {
    boolean ok() {
      return exitCode == 0;
    }
  }

  private ProcessRunner() {}

  /**
   * Runs {@code argv} (never through a shell) and waits up to {@code timeout}.
   *
   * @throws IOException if the program cannot be started (e.g. not on PATH)
   */
  static Result run(List<String> argv, Path log, Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process p =
        new ProcessBuilder(argv)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        return new Result(-1, tail(log) + "\n(killed after " + timeout.toSeconds() + " s)");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      throw e;
    }
    return new Result(p.exitValue(), tail(log));
  }

  /** The last 40 lines of a log, for error messages. */
  static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "";
    }
    List<String> lines =
        List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n"));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
