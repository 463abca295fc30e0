package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.process.ProcUsage;
import dev.abfleet.worker.process.TextTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One virtiofsd serving one boot's host volume: started before QEMU, ready once its
 * vhost-user socket exists, stopped with the VM ({@link #close}).
 *
 * <p>Lifecycle: {@link #start} returns only when the socket is there (QEMU fails at once on a
 * missing socket); it throws, leaving no process behind, when the daemon exits first or the
 * socket does not appear within the ready timeout. {@link #close} sends SIGTERM, waits
 * {@link #STOP_GRACE}, then kills. stdout and stderr go to {@code virtiofsd.stdout} and
 * {@code virtiofsd.stderr} in the boot's work directory.
 *
 * <p>While it runs, its CPU time and thread count are sampled from /proc every
 * {@link #SAMPLE_INTERVAL} ({@link #usage}): the daemon's side of the I/O path, reported beside
 * the guest's counters. The last sample before the daemon exits is what is kept, so up to one
 * interval of CPU time at the very end (the guest powering off) can be missing.
 */
public final class Virtiofsd implements AutoCloseable {

  /** How long a started daemon gets to create its socket. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
  /** How long a stopped daemon gets to exit after SIGTERM before it is killed. */
  static final Duration STOP_GRACE = Duration.ofSeconds(2);
  /** How often CPU time and threads are read while the daemon runs. */
  static final Duration SAMPLE_INTERVAL = Duration.ofMillis(100);
  private static final long POLL_MS = 20;

  private final Process process;
  private final ProcUsage.Sampler sampler;

  private Virtiofsd(Process process) {
    this.process = process;
    this.sampler = ProcUsage.sample(process.pid(), SAMPLE_INTERVAL);
  }

  /**
   * Starts the daemon and waits until {@code socket} exists.
   *
   * @param logDir receives virtiofsd.stdout and virtiofsd.stderr
   * @throws IOException the daemon could not be started, exited before its socket appeared, or
   *     did not create it within {@code readyTimeout} (the message carries its stderr tail)
   * @throws InterruptedException interrupted while waiting; the daemon is stopped first
   */
  public static Virtiofsd start(List<String> argv, Path socket, Path logDir, Duration readyTimeout)
      throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    Path err = logDir.resolve("virtiofsd.stderr");
    Process p = new ProcessBuilder(argv)
        .redirectOutput(logDir.resolve("virtiofsd.stdout").toFile())
        .redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    Virtiofsd d = new Virtiofsd(p);
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    try {
      while (!Files.exists(socket)) {
        if (!p.isAlive()) {
          throw new IOException("virtiofsd exited with status " + p.exitValue() + " before creating " + socket
              + ": " + tail(err));
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IOException("virtiofsd did not create " + socket + " within " + readyTimeout.toMillis()
              + " ms: " + tail(err));
        }
        Thread.sleep(POLL_MS);
      }
      return d;
    } catch (IOException | InterruptedException | RuntimeException e) {
      d.close();
      throw e;
    }
  }

  /** The daemon's process id, for logs and tests. */
  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** CPU time and the most threads seen so far (after {@link #close}: over the daemon's life). */
  public ProcUsage usage() {
    return sampler.usage();
  }

  /** Stops the daemon (and anything it started): SIGTERM, then SIGKILL after {@link #STOP_GRACE}. */
  @Override
  public void close() {
    sampler.close();
    List<ProcessHandle> children = process.descendants().toList();
    process.destroy();
    boolean interrupted = false;
    try {
      if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      interrupted = true;
      process.destroyForcibly();
    }
    children.forEach(ProcessHandle::destroyForcibly);
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static String tail(Path err) {
    String t = TextTail.of(err, 5).strip();
    return t.isEmpty() ? "no message on stderr" : t.replace('\n', ' ');
  }
}
