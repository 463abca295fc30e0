package dev.abfleet.worker.vm.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Pins each vCPU thread of a paused QEMU ({@code -S}) to a host CPU of its own, then lets the
 * guest run. Over QMP: {@code qmp_capabilities}, {@code query-cpus-fast} (the thread id of each
 * vCPU), then for each vCPU {@code taskset -p -c CPU TID} and a read-back {@code taskset -c -p
 * TID} (Java cannot call sched_setaffinity itself), then {@code cont}. The host CPUs recorded
 * are the ones read back, so a report shows what the kernel actually applied.
 *
 * <p>Host CPUs come from this worker's own cpuset (its Cpus_allowed_list, which a cgroup cpuset
 * narrows), lowest first. When there are more CPUs than vCPUs the lowest CPU of the set (CPU 0
 * on most hosts) is left free: it takes most device interrupts and housekeeping, and QEMU's own
 * main-loop and I/O threads, which stay unpinned, can run there. A host with fewer CPUs than
 * vCPUs cannot pin and says so. Only vCPU threads are pinned.
 */
public final class VcpuPinner {
  private static final Duration TASKSET_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How pinning went.
   *
   * @param hostCpus host CPU of each vCPU (index = vCPU), as read back; empty on failure
   * @param problem why the vCPUs could not be pinned (the guest never ran); null = pinned
   */
  public record Result(List<Integer> hostCpus, String problem) {
    public Result {
      hostCpus = List.copyOf(hostCpus);
    }

    public boolean pinned() {
      return problem == null;
    }

    static Result failed(String problem) {
      return new Result(List.of(), problem);
    }
  }

  private final CommandRunner runner;
  private final Function<String, Optional<Path>> which;
  private final Supplier<String> cpusAllowed;

  /**
   * @param runner runs taskset
   * @param which resolves {@code taskset} to its path (empty when not installed)
   * @param cpusAllowed this worker's CPU list, e.g. "0-7" (Cpus_allowed_list syntax)
   */
  public VcpuPinner(CommandRunner runner, Function<String, Optional<Path>> which, Supplier<String> cpusAllowed) {
    this.runner = runner;
    this.which = which;
    this.cpusAllowed = cpusAllowed;
  }

  /** The CPUs this process may run on, from {@code /proc/self/status}; "" when unreadable. */
  public static String ownCpus() {
    try {
      return CpuList.allowedList(Files.readString(Path.of("/proc/self/status")));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * The host CPU for each of {@code vcpus} vCPUs, from the CPUs this worker may use: distinct,
   * lowest first, the lowest left free when there are more CPUs than vCPUs; or why not.
   */
  static Choice choose(String allowedList, int vcpus) {
    Optional<List<Integer>> allowed = CpuList.parse(allowedList);
    if (allowed.isEmpty()) {
      return new Choice(List.of(), "cannot tell which CPUs this worker may use (Cpus_allowed_list '"
          + allowedList + "'); pinning needs Linux /proc");
    }
    List<Integer> cpus = allowed.get();
    if (cpus.size() < vcpus) {
      return new Choice(List.of(), "this host has " + cpus.size() + " usable CPUs (cpuset "
          + CpuList.format(cpus) + ") and cannot pin " + vcpus + " vCPUs to one each; run the arm on a host"
          + " with at least " + vcpus + " CPUs, or with fewer vCPUs");
    }
    List<Integer> usable = cpus.size() > vcpus ? cpus.subList(1, cpus.size()) : cpus;
    return new Choice(List.copyOf(usable.subList(0, vcpus)), null);
  }

  /** Host CPUs chosen for the vCPUs, or the problem (then {@code cpus} is empty). */
  record Choice(List<Integer> cpus, String problem) {}

  /**
   * Pins the vCPUs of the paused QEMU listening on {@code qmpSocket} and continues it. On any
   * failure after connecting, QEMU is asked to quit; the caller kills it in any case.
   *
   * @param workDir where the taskset output files go
   * @param deadlineNanos {@link System#nanoTime()} by which pinning must be done
   * @param qemuGone true once QEMU has exited
   * @throws InterruptedException if interrupted; QEMU may then still be paused
   */
  public Result pin(Path qmpSocket, int vcpus, Path workDir, long deadlineNanos, BooleanSupplier qemuGone)
      throws InterruptedException {
    Choice choice = choose(cpusAllowed.get(), vcpus);
    if (choice.problem() != null) {
      return Result.failed(choice.problem());
    }
    Optional<Path> taskset = which.apply("taskset");
    if (taskset.isEmpty()) {
      return Result.failed("taskset not found: apt-get install util-linux");
    }
    QmpClient qmp;
    try {
      qmp = QmpClient.connect(qmpSocket, deadlineNanos, qemuGone);
    } catch (IOException e) {
      return Result.failed(e.getMessage());
    }
    try {
      List<Long> threads = vcpuThreads(qmp.execute("query-cpus-fast"), vcpus);
      List<Integer> pinned = new ArrayList<>();
      for (int i = 0; i < vcpus; i++) {
        pinned.add(pinThread(taskset.get().toString(), i, threads.get(i), choice.cpus().get(i), workDir));
      }
      qmp.execute("cont");
      return new Result(pinned, null);
    } catch (IOException | PinFailure e) {
      quitQuietly(qmp);
      return Result.failed(e.getMessage());
    } finally {
      closeQuietly(qmp);
    }
  }

  /** Thread id of each vCPU, by cpu-index, from a query-cpus-fast reply. */
  static List<Long> vcpuThreads(JsonNode cpus, int vcpus) throws PinFailure {
    if (cpus == null || !cpus.isArray() || cpus.size() != vcpus) {
      throw new PinFailure("query-cpus-fast listed " + (cpus != null && cpus.isArray() ? cpus.size() : 0)
          + " vCPUs, expected " + vcpus);
    }
    Long[] threads = new Long[vcpus];
    for (JsonNode cpu : cpus) {
      int index = cpu.path("cpu-index").asInt(-1);
      long thread = cpu.path("thread-id").asLong(-1);
      if (index < 0 || index >= vcpus || threads[index] != null || thread <= 0) {
        throw new PinFailure("query-cpus-fast returned an unusable vCPU entry: " + cpu);
      }
      threads[index] = thread;
    }
    if (new HashSet<>(List.of(threads)).size() != vcpus) {
      throw new PinFailure("vCPUs share a host thread (" + List.of(threads) + "), so they cannot be pinned"
          + " apart; QEMU must run one thread per vCPU (TCG: -accel tcg,thread=multi)");
    }
    return List.of(threads);
  }

  private int pinThread(String taskset, int vcpu, long thread, int cpu, Path workDir)
      throws PinFailure, InterruptedException {
    String tid = Long.toString(thread);
    RunResult set = runner.run(List.of(taskset, "-p", "-c", Integer.toString(cpu), tid), workDir,
        "taskset-vcpu" + vcpu, TASKSET_TIMEOUT);
    interruptedCheck();
    if (!set.succeeded()) {
      throw new PinFailure("taskset -p -c " + cpu + " " + tid + " (vCPU " + vcpu + ") failed"
          + (set.launchError() != null ? ": " + set.launchError() : " (exit " + set.exitCode() + "): "
              + set.outputTail().strip()));
    }
    RunResult read = runner.run(List.of(taskset, "-c", "-p", tid), workDir, "taskset-vcpu" + vcpu + "-read",
        TASKSET_TIMEOUT);
    interruptedCheck();
    Optional<List<Integer>> now = read.succeeded() ? affinity(read.stdoutTail()) : Optional.empty();
    if (now.isEmpty() || !now.get().equals(List.of(cpu))) {
      throw new PinFailure("vCPU " + vcpu + " (thread " + tid + ") reads back affinity '"
          + (now.map(CpuList::format).orElse(read.outputTail().strip())) + "' after pinning to CPU " + cpu);
    }
    return cpu;
  }

  /** The CPU list at the end of taskset's last line ("pid 42's current affinity list: 1"). */
  static Optional<List<Integer>> affinity(String tasksetOutput) {
    List<String> lines = tasksetOutput.strip().lines().filter(l -> !l.isBlank()).toList();
    if (lines.isEmpty()) {
      return Optional.empty();
    }
    String last = lines.get(lines.size() - 1);
    return CpuList.parse(last.substring(last.lastIndexOf(':') + 1));
  }

  private static void interruptedCheck() throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      Thread.interrupted();
      throw new InterruptedException("interrupted while pinning vCPUs");
    }
  }

  private static void quitQuietly(QmpClient qmp) {
    try {
      qmp.execute("quit");
    } catch (IOException | RuntimeException e) {
      // QEMU is gone or deaf; the driver kills it anyway.
    }
  }

  private static void closeQuietly(QmpClient qmp) {
    try {
      qmp.close();
    } catch (IOException e) {
      // nothing left to tell QEMU
    }
  }

  /** A pinning step that failed; the message says which and why. */
  static final class PinFailure extends Exception {
    PinFailure(String message) {
      super(message);
    }
  }
}
