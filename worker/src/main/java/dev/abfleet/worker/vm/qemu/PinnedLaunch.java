package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.EndMarker;
import dev.abfleet.worker.process.OutputCap;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.BootRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Runs a paused QEMU ({@code -S}) on a thread of its own while the calling thread pins its
 * vCPUs ({@link VcpuPinner}) and continues it. A VM that cannot be pinned is killed (its thread
 * interrupted, so the runner kills the process tree) before its guest ran.
 */
final class PinnedLaunch {
  /** Longest wait for QEMU's QMP socket and the pinning of a paused VM. */
  static final Duration PIN_TIMEOUT = Duration.ofSeconds(30);
  /** Longest unix socket path used (Linux allows 107 bytes, macOS 103). */
  private static final int MAX_SOCKET_PATH = 100;

  private PinnedLaunch() {}

  /** QEMU's run and how pinning its vCPUs went. */
  record Pinned(RunResult qemu, VcpuPinner.Result pin) {}

  /** Runs {@code argv} (which listens for QMP on {@code qmp}) and pins its vCPUs. */
  static Pinned run(CommandRunner runner, VcpuPinner pinner, List<String> argv, BootRequest req, Path qmp,
      List<OutputCap> caps, EndMarker end) throws InterruptedException {
    FutureTask<RunResult> qemu =
        new FutureTask<>(() -> runner.run(argv, req.workDir(), "qemu", req.timeout(), caps, end));
    Thread thread = new Thread(qemu, "qemu-" + req.runId());
    thread.setDaemon(true);
    thread.start();
    VcpuPinner.Result pin;
    try {
      long deadline = System.nanoTime() + Collections.min(List.of(PIN_TIMEOUT, req.timeout())).toNanos();
      pin = pinner.pin(qmp, req.vcpus(), req.workDir(), deadline, qemu::isDone);
    } catch (InterruptedException e) {
      thread.interrupt();
      awaitUninterruptibly(qemu);
      throw e;
    }
    if (!pin.pinned()) {
      thread.interrupt();
      return new Pinned(awaitUninterruptibly(qemu), pin);
    }
    try {
      return new Pinned(qemu.get(), pin);
    } catch (InterruptedException e) {
      thread.interrupt();
      awaitUninterruptibly(qemu);
      throw new InterruptedException("boot " + req.runId() + " interrupted; VM killed");
    } catch (ExecutionException e) {
      throw new IllegalStateException("running QEMU failed", e.getCause());
    }
  }

  /** Waits for QEMU to end (it is being killed), keeping any interrupt for the caller. */
  private static RunResult awaitUninterruptibly(FutureTask<RunResult> qemu) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return qemu.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw new IllegalStateException("running QEMU failed", e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The QMP socket of a boot: in its work directory, or in a fresh temporary directory when that
   * path is too long for a unix socket (108 bytes on Linux, 104 on macOS).
   */
  static Path qmpSocket(Path workDir) throws IOException {
    Path inWorkDir = workDir.toAbsolutePath().resolve("qmp.sock");
    Files.deleteIfExists(inWorkDir);
    if (inWorkDir.toString().getBytes(StandardCharsets.UTF_8).length < MAX_SOCKET_PATH) {
      return inWorkDir;
    }
    return Files.createTempDirectory("abfleet-qmp").resolve("qmp.sock");
  }

  /** Removes the socket (and the temporary directory it may be in); null = none. */
  static void deleteQuietly(Path socket) {
    if (socket == null) {
      return;
    }
    try {
      Files.deleteIfExists(socket);
      if (socket.getParent().getFileName().toString().startsWith("abfleet-qmp")) {
        Files.deleteIfExists(socket.getParent());
      }
    } catch (IOException e) {
      // a stale socket file in a run directory harms nothing
    }
  }
}
