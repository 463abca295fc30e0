package dev.abfleet.worker.build;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs the commands of one build through a {@link CommandRunner} and appends each one, with
 * its output and exit status, to the build's log. An interrupted command is killed and
 * surfaces as {@link InterruptedException}.
 */
final class StepRunner {

  /** How often a watched command's stdout is read for progress. */
  static final Duration WATCH_POLL = Duration.ofMillis(500);

  private final CommandRunner runner;
  private final Path workDir;
  private final Path log;
  private int count;

  /**
   * @param workDir receives each command's stdout and stderr files; the commands' working directory
   * @param log     the build log, appended to
   */
  StepRunner(CommandRunner runner, Path workDir, Path log) {
    this.runner = runner;
    this.workDir = workDir;
    this.log = log;
  }

  Path log() {
    return log;
  }

  /** Runs {@code argv}, logs it, and returns how it ended. */
  RunResult run(String name, List<String> argv, Duration timeout) throws InterruptedException {
    return logged(runner.run(argv, workDir, nextLogName(name), timeout), argv);
  }

  /**
   * As {@link #run}, on another thread, while this one hands {@code onStdout} each new piece of
   * the command's stdout every {@link #WATCH_POLL}. Interrupting this thread kills the command.
   */
  RunResult runWatching(String name, List<String> argv, Duration timeout, Consumer<String> onStdout)
      throws InterruptedException {
    String logName = nextLogName(name);
    FutureTask<RunResult> task = new FutureTask<>(() -> runner.run(argv, workDir, logName, timeout));
    Thread thread = new Thread(task, "kernel-build-" + name);
    thread.setDaemon(true);
    thread.start();
    Path stdout = workDir.resolve(logName + ".stdout");
    long offset = 0;
    try {
      while (true) {
        try {
          RunResult r = task.get(WATCH_POLL.toMillis(), TimeUnit.MILLISECONDS);
          readFrom(stdout, offset, onStdout);
          return logged(r, argv);
        } catch (TimeoutException e) {
          offset = readFrom(stdout, offset, onStdout);
        }
      }
    } catch (InterruptedException e) {
      thread.interrupt(); // the runner kills the process tree and returns
      thread.join(Duration.ofSeconds(30).toMillis());
      throw e;
    } catch (ExecutionException e) {
      throw new IllegalStateException("the command runner threw for " + argv.get(0), e.getCause());
    }
  }

  /** A file written by a command or a user, as text; bytes that are not UTF-8 are replaced, not fatal. */
  static String text(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  /** Appends a line of the builder's own to the log. */
  void note(String line) {
    append(("# " + line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private String nextLogName(String name) {
    return String.format("%02d-%s", ++count, name);
  }

  private RunResult logged(RunResult r, List<String> argv) throws InterruptedException {
    append(("$ " + String.join(" ", argv) + "\n").getBytes(StandardCharsets.UTF_8));
    appendFile(r.stdout());
    appendFile(r.stderr());
    String end = r.launchError() != null ? "not started: " + r.launchError()
        : r.timedOut() ? "killed at its timeout" : r.interrupted() ? "killed: interrupted" : "exit " + r.exitCode();
    append(("# " + end + " after " + r.wall().toMillis() + " ms\n").getBytes(StandardCharsets.UTF_8));
    if (r.interrupted()) {
      throw new InterruptedException(argv.get(0) + " interrupted");
    }
    return r;
  }

  private static long readFrom(Path file, long offset, Consumer<String> sink) {
    try (var ch = Files.newByteChannel(file)) {
      long size = ch.size();
      if (size <= offset) {
        return offset;
      }
      ch.position(offset);
      InputStream in = java.nio.channels.Channels.newInputStream(ch);
      byte[] bytes = in.readNBytes((int) Math.min(size - offset, 8 << 20));
      sink.accept(new String(bytes, StandardCharsets.UTF_8));
      return offset + bytes.length;
    } catch (IOException e) {
      return offset; // not created yet
    }
  }

  private void appendFile(Path file) {
    if (file == null || !Files.exists(file)) {
      return;
    }
    try (InputStream in = Files.newInputStream(file);
        OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      in.transferTo(out);
    } catch (IOException e) {
      note("cannot copy " + file + " into the log: " + e.getMessage());
    }
  }

  private void append(byte[] bytes) {
    try {
      Files.write(log, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the log is best effort: a full disk shows up in the step itself
    }
  }
}
