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
 *
 * <p>Files the child writes under an {@link OutputCap} are looked at every {@link #CAP_POLL}
 * while it runs; one past its cap gets the tree killed. A file can thus end larger than its cap
 * by what the child writes in one poll interval before the kill.
 */
public final class ProcessRunner implements CommandRunner {

  private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);

  /** How often capped output files are looked at: a stat each, cheap next to a VM. */
  static final Duration CAP_POLL = Duration.ofMillis(100);

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
    return run(argv, workDir, logName, timeout, List.of());
  }

  @Override
  public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps) {
    return run(argv, workDir, logName, timeout, caps, null);
  }

  @Override
  public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps,
      EndMarker end) {
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
    Ending ending = await(process, argv.get(0), start + timeout.toNanos(), caps, end);
    // A child may also have written past a cap and exited between two looks.
    String overCap = ending.overCap() != null ? ending.overCap() : overCap(caps);
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    int exit = ending.killed() || process.isAlive() ? -1 : process.exitValue();
    return new RunResult(exit, ending.timedOut(), ending.interrupted(), wall, out, err,
        TextTail.of(out, TextTail.DEFAULT_LINES), TextTail.of(err, TextTail.DEFAULT_LINES), null, overCap,
        ending.stoppedAfterEnd());
  }

  /** How waiting for a child ended; a killed child is dead (or SIGKILLed) when it is returned. */
  private record Ending(boolean timedOut, boolean interrupted, String overCap, boolean stoppedAfterEnd) {
    static final Ending EXITED = new Ending(false, false, null, false);

    boolean killed() {
      return timedOut || interrupted || overCap != null || stoppedAfterEnd;
    }
  }

  /**
   * Waits until the child exits, the deadline passes, a capped file overflows, the grace after
   * its end marker runs out or we are interrupted.
   */
  private Ending await(Process process, String program, long deadline, List<OutputCap> caps, EndMarker end) {
    boolean poll = !caps.isEmpty() || end != null;
    boolean ended = false; // the end marker was seen; the child has until graceEnds
    long graceEnds = 0;
    try {
      while (true) {
        long now = System.nanoTime();
        if (ended && now - graceEnds >= 0) {
          log.info("{} still running {} after its end marker in {}; stopping it", program, end.grace(),
              end.file().getFileName());
          killTree(process);
          return new Ending(false, false, null, true);
        }
        long left = deadline - now;
        if (left <= 0) {
          log.debug("{} still running at its timeout; killing it", program);
          killTree(process);
          return new Ending(true, false, null, false);
        }
        if (process.waitFor(poll ? Math.min(left, CAP_POLL.toNanos()) : left, TimeUnit.NANOSECONDS)) {
          return Ending.EXITED;
        }
        String overCap = overCap(caps);
        if (overCap != null) {
          log.debug("{}: {}; killing it", program, overCap);
          killTree(process);
          return new Ending(false, false, overCap, false);
        }
        if (end != null && !ended && end.seen()) {
          ended = true;
          graceEnds = System.nanoTime() + end.grace().toNanos();
        }
      }
    } catch (InterruptedException e) {
      killTree(process);
      Thread.currentThread().interrupt();
      return new Ending(false, true, null, false);
    }
  }

  /** Why the first file past its cap is, or null when every file is within its cap. */
  private static String overCap(List<OutputCap> caps) {
    for (OutputCap cap : caps) {
      try {
        String why = cap.exceeded(Files.size(cap.file()));
        if (why != null) {
          return why;
        }
      } catch (IOException e) {
        // not written yet (or unreadable): nothing to hold against the child
      }
    }
    return null;
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
