package dev.abfleet.worker.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin runner under every external tool the worker starts (QEMU, vfkit, apt-get, gcc):
 * starts an argv list (never a shell string), waits with a timeout and kills the whole process
 * tree when the time is up or the caller is interrupted. A timeout is logged at DEBUG only:
 * some callers time out on purpose (the KVM probe), and those for whom it is a failure (a boot
 * that hung) report it themselves from {@link RunResult#timedOut()}.
 *
 * <p>stdout and stderr are redirected by the operating system straight into files in the
 * working directory. Both streams are thus drained concurrently by the kernel: a child that
 * prints a lot can never block on a full pipe, and no pump threads can die or lag.
 */
public final class ProcessRunner implements CommandRunner {

  private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);

  /** Time between the polite SIGTERM and SIGKILL. */
  private final Duration killGrace;

  public ProcessRunner() {
    this(Duration.ofSeconds(2));
  }

  /** @param killGrace how long a killed process tree may take to exit after SIGTERM before SIGKILL */
  public ProcessRunner(Duration killGrace) {
    this.killGrace = killGrace;
  }

  @Override
  public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty argv");
    }
    Path out = workDir.resolve(logName + ".stdout");
    Path err = workDir.resolve(logName + ".stderr");
    long start = System.nanoTime();
    Process process;
    try {
      Files.createDirectories(workDir);
      process = new ProcessBuilder(argv)
          .directory(workDir.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
    } catch (IOException e) {
      return new RunResult(-1, false, false, Duration.ZERO, out, err, "", "",
          "cannot start " + argv.get(0) + ": " + e.getMessage());
    }
    boolean timedOut = false;
    boolean interrupted = false;
    try {
      if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        timedOut = true;
        log.debug("{} still running after {}; killing it", argv.get(0), timeout);
        killTree(process);
      }
    } catch (InterruptedException e) {
      interrupted = true;
      killTree(process);
      Thread.currentThread().interrupt();
    }
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    int exit = timedOut || interrupted || process.isAlive() ? -1 : process.exitValue();
    return new RunResult(exit, timedOut, interrupted, wall, out, err,
        TextTail.of(out, TextTail.DEFAULT_LINES), TextTail.of(err, TextTail.DEFAULT_LINES), null);
  }

  /**
   * SIGTERM to the process and all its descendants, SIGKILL to whatever is left after the
   * grace period. Descendants are listed first: once the parent dies they are re-parented
   * and can no longer be found through it.
   */
  private void killTree(Process process) {
    List<ProcessHandle> tree = process.descendants().toList();
    process.destroy();
    tree.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + killGrace.toNanos();
    for (ProcessHandle h : concat(process.toHandle(), tree)) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          h.onExit().get(left, TimeUnit.NANOSECONDS);
        }
      } catch (Exception e) {
        // still alive, interrupted or unobservable: SIGKILL below settles it
      }
    }
    for (ProcessHandle h : concat(process.toHandle(), tree)) {
      if (h.isAlive()) {
        h.destroyForcibly();
      }
    }
    try {
      process.waitFor(killGrace.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<ProcessHandle> concat(ProcessHandle head, List<ProcessHandle> tail) {
    return Stream.concat(Stream.of(head), tail.stream()).toList();
  }

  private static File nullDevice() {
    return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }
}
