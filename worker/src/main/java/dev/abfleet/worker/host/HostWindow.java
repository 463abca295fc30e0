package dev.abfleet.worker.host;

import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.proto.fleet.v1.HostPressure;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;

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
  public WorkerMessage end(WorkerMessage report) {
    if (sampler == null) {
      return report;
    }
    HostPressure pressure = PressureSampler.between(start, sampler.pressure().sample());
    BootHostFacts facts = sampler.facts() == null ? BootHostFacts.getDefaultInstance()
        : sampler.facts().read(hypervisor(report));
    return withHost(report, pressure, facts, sampler.quiet().interfered(pressure));
  }

  /** The report (a RunResult or RunFailure; others as they are) with the host's telemetry. */
  public static WorkerMessage withHost(WorkerMessage report, HostPressure pressure, BootHostFacts facts,
      boolean interfered) {
    if (report.hasRunResult()) {
      var r = report.getRunResult().toBuilder();
      host(r.getTelemetryBuilder(), pressure, facts, interfered);
      return report.toBuilder().setRunResult(r).build();
    }
    if (report.hasRunFailure()) {
      var f = report.getRunFailure().toBuilder();
      host(f.getTelemetryBuilder(), pressure, facts, interfered);
      return report.toBuilder().setRunFailure(f).build();
    }
    return report;
  }

  private static void host(RunTelemetry.Builder t, HostPressure pressure, BootHostFacts facts, boolean interfered) {
    t.setHostPressure(pressure).setHostFacts(facts).setInterfered(interfered);
  }

  private static String hypervisor(WorkerMessage report) {
    if (report.hasRunResult()) {
      return report.getRunResult().getTelemetry().getHypervisor();
    }
    return report.hasRunFailure() ? report.getRunFailure().getTelemetry().getHypervisor() : "";
  }
}
