package dev.abfleet.worker.host;

import dev.abfleet.proto.fleet.v1.HostPressure;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Reads the host's pressure from Linux /proc under a root ({@code /} on a host, a fixture
 * directory in tests): /proc/pressure/{cpu,io,memory}, /proc/loadavg, /proc/stat and the
 * worker's own /proc/self/stat and /proc/self/status (its CPUs: a worker confined to some of
 * the host's CPUs measures busy time over those). Missing
 * files (macOS, kernels without PSI, containers that hide it) give absent values, never an error;
 * on macOS the load and the CPU count come from {@link Sysctl}.
 */
public final class PressureSampler {
  /** /proc/stat counts in USER_HZ ticks, 100 per second on every Linux architecture abfleet runs on. */
  static final long MS_PER_TICK = 10;

  private final ProcFiles files;
  private final LongSupplier clock;
  private final Sysctl sysctl;

  /** @param clock wall clock, Unix epoch ms */
  public PressureSampler(Path root, LongSupplier clock) {
    this(root, clock, Sysctl.NONE);
  }

  /**
   * As above; where /proc/loadavg is missing (macOS), the load from {@code sysctl}'s
   * {@code vm.loadavg} and the CPUs from its {@code hw.logicalcpu}.
   */
  public PressureSampler(Path root, LongSupplier clock, Sysctl sysctl) {
    this.files = new ProcFiles(root);
    this.clock = clock;
    this.sysctl = sysctl;
  }

  /** What /proc (or, without it, sysctl) says now. */
  public PressureSnapshot sample() {
    String loadavg = files.read("proc/loadavg")
        .or(() -> sysctl.read("vm.loadavg").flatMap(Sysctl::procLoadavg)).orElse("");
    String stat = files.read("proc/stat").orElse("");
    Set<Integer> online = PressureSnapshot.cpuNumbers(stat);
    Set<Integer> own = PressureSnapshot.ownShare(online, files.read("proc/self/status").orElse(""));
    int cpus = stat.isEmpty() ? Math.max(0, sysctl.positiveInt("hw.logicalcpu"))
        : own.isEmpty() ? online.size() : own.size();
    return new PressureSnapshot(
        files.read("proc/pressure/cpu").flatMap(PressureSnapshot.Psi::parse).orElse(null),
        files.read("proc/pressure/io").flatMap(PressureSnapshot.Psi::parse).orElse(null),
        files.read("proc/pressure/memory").flatMap(PressureSnapshot.Psi::parse).orElse(null),
        PressureSnapshot.load1m(loadavg),
        PressureSnapshot.runnable(loadavg),
        PressureSnapshot.busyTicks(stat, own),
        files.read("proc/self/stat").map(PressureSnapshot::processTicks).orElse(-1L),
        cpus,
        clock.getAsLong());
  }

  /**
   * The pressure over the window from {@code start} to {@code end}: each avg10, the load and the
   * runnable tasks are the end's (the last 10 s of the boot), each stall total the difference.
   */
  public static HostPressure between(PressureSnapshot start, PressureSnapshot end) {
    HostPressure.Builder p = HostPressure.newBuilder()
        .setWindowMs(Math.max(0, end.atMs() - start.atMs()))
        .setLoad1M(end.load1m())
        .setRunnableTasks(Math.max(0, end.runnable()));
    boolean psi = start.cpu() != null && end.cpu() != null;
    p.setHasPsi(psi);
    if (psi) {
      p.setCpuSomeAvg10(end.cpu().avg10())
          .setCpuSomeTotalUs(delta(start.cpu().totalUs(), end.cpu().totalUs()));
    }
    if (start.io() != null && end.io() != null) {
      p.setIoSomeAvg10(end.io().avg10())
          .setIoSomeTotalUs(delta(start.io().totalUs(), end.io().totalUs()));
    }
    if (start.memory() != null && end.memory() != null) {
      p.setMemorySomeAvg10(end.memory().avg10())
          .setMemorySomeTotalUs(delta(start.memory().totalUs(), end.memory().totalUs()));
    }
    if (start.busyTicks() >= 0 && end.busyTicks() >= 0) {
      p.setHostBusyMs(delta(start.busyTicks(), end.busyTicks()) * MS_PER_TICK);
      if (start.workerTicks() >= 0 && end.workerTicks() >= 0) {
        p.setWorkerCpuMs(delta(start.workerTicks(), end.workerTicks()) * MS_PER_TICK);
      }
    }
    p.setHostCpus(Math.max(0, end.cpus()));
    return p.build();
  }

  private static long delta(long start, long end) {
    return Math.max(0, end - start);
  }
}
