package dev.abfleet.worker.host;

import dev.abfleet.worker.run.RunReport;

import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.proto.fleet.v1.HostPressure;

/**
 * One boot's window on the host: {@link HostSampler#begin()} before the run, {@link #end} on its
 * report, which then carries the host's pressure over the window, the host's facts and whether
 * the boot was interfered.
 */
public final class HostWindow {
  private static final HostWindow NONE = new HostWindow(null, null);

  private final HostSampler sampler;
  private final PressureSnapshot start;

  HostWindow(HostSampler sampler, PressureSnapshot start) {
    this.sampler = sampler;
    this.start = start;
  }

  /** A window that adds nothing (simulated hosts). */
  static HostWindow none() {
    return NONE;
  }

  /** {@code report} with the host's pressure since begin() and its facts now; as is for no window. */
  public RunReport end(RunReport report) {
    return sampler == null ? report : end(report, sampler.quiet(), 0);
  }

  /**
   * As above, judged against {@code quiet} (the experiment's threshold when it sets one), with
   * the ms the boot waited for a quiet host before it started.
   */
  public RunReport end(RunReport report, QuietThreshold quiet, long quietWaitMs) {
    if (sampler == null) {
      return report;
    }
    HostPressure pressure = PressureSampler.between(start, sampler.pressure().sample());
    BootHostFacts facts = sampler.facts() == null ? BootHostFacts.getDefaultInstance()
        : sampler.facts().read(report.telemetry().getHypervisor());
    RunReport sampled = withHost(report, pressure, facts, quiet.interfered(pressure));
    return sampled.withTelemetry(sampled.telemetry().toBuilder().setQuietWaitMs(quietWaitMs).build());
  }

  /** The report with the host's telemetry. */
  public static RunReport withHost(RunReport report, HostPressure pressure, BootHostFacts facts, boolean interfered) {
    return report.withTelemetry(report.telemetry().toBuilder()
        .setHostPressure(pressure).setHostFacts(facts).setInterfered(interfered).build());
  }
}
