package dev.abfleet.worker.host;

import dev.abfleet.worker.HostFacts;
import java.nio.file.Path;
import java.util.Map;

/**
 * Samples the host around each boot (see {@link HostWindow}). {@link #NONE} for simulated hosts,
 * whose boots must not carry the real host's pressure.
 *
 * @param pressure reads /proc; null = none
 * @param facts reads the host's facts; null = none
 * @param quiet when a boot counts as interfered
 */
public record HostSampler(PressureSampler pressure, BootFactsReader facts, QuietThreshold quiet) {
  /** Samples nothing: reports go out as the run procedure made them. */
  public static final HostSampler NONE = new HostSampler(null, null, QuietThreshold.DEFAULT);

  /** The real host under {@code /}; on macOS, what {@link Sysctl} gives in place of /proc and /sys. */
  public static HostSampler of(HostFacts host, Map<String, String> hypervisorVersions, QuietThreshold quiet) {
    Path root = Path.of("/");
    Sysctl sysctl = host.isMac() ? Sysctl.system() : Sysctl.NONE;
    return new HostSampler(new PressureSampler(root, System::currentTimeMillis, sysctl),
        new BootFactsReader(root, host, hypervisorVersions, sysctl), quiet);
  }

  /**
   * Waits, bounded, for other processes' use of the host's CPU to fall to {@code cpuSomePct}
   * percent before a measured boot ({@link QuietWait}); returns the ms waited. No wait without a
   * pressure sampler (simulated hosts) or without /proc.
   */
  public long awaitQuiet(double cpuSomePct, long maxWaitMs) throws InterruptedException {
    return pressure == null ? 0 : QuietWait.of(pressure).await(cpuSomePct, maxWaitMs);
  }

  /** Opens a boot's window: samples /proc now. */
  public HostWindow begin() {
    return pressure == null ? HostWindow.none() : new HostWindow(this, pressure.sample());
  }
}
