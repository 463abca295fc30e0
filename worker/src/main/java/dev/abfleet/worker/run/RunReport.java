package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.worker.guest.GuestCounters;
import dev.abfleet.worker.guest.GuestSample;
import java.util.List;

/**
 * What one boot gave: its measurements or why it failed, each with the run's telemetry. The
 * worker's own result; {@link RunReports#toWire} turns it into the RunResult or RunFailure the
 * controller receives.
 */
public sealed interface RunReport {

  /** The host, hypervisor, boot and guest facts of the run. */
  RunTelemetry telemetry();

  /** The same report with {@code telemetry} instead (e.g. with start and end times added). */
  RunReport withTelemetry(RunTelemetry telemetry);

  /**
   * A boot whose harness (or workload) reported every requested metric.
   *
   * @param samples the samples, warm-up iterations included, in the order the guest reported them
   * @param guestCounters the guest's counters, once per metric
   * @param parseErrors bad lines of the guest's output, "line N: message", the first few
   * @param parseErrorsOmitted further bad lines, counted
   */
  record Measured(List<GuestSample> samples, List<GuestCounters> guestCounters, List<String> parseErrors,
      int parseErrorsOmitted, RunTelemetry telemetry) implements RunReport {
    public Measured {
      samples = List.copyOf(samples);
      guestCounters = List.copyOf(guestCounters);
      parseErrors = List.copyOf(parseErrors);
    }

    @Override
    public Measured withTelemetry(RunTelemetry t) {
      return new Measured(samples, guestCounters, parseErrors, parseErrorsOmitted, t);
    }
  }

  /**
   * A boot that failed (see {@link RunClassifier} for what each kind means).
   *
   * @param message one line: what went wrong and, where known, what to do
   * @param consoleTail the last lines of the VM's console; empty when the VM never started
   */
  record Failed(FailureKind kind, String message, String consoleTail, RunTelemetry telemetry) implements RunReport {
    @Override
    public Failed withTelemetry(RunTelemetry t) {
      return new Failed(kind, message, consoleTail, t);
    }
  }
}
