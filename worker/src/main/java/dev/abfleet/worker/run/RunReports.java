package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.guest.GuestCounters;
import dev.abfleet.worker.guest.GuestSample;

/** A {@link RunReport} on the wire: the RunResult or RunFailure of one run of a block. Pure. */
public final class RunReports {
  private RunReports() {}

  public static WorkerMessage toWire(BlockAssignment block, RunAssignment run, RunReport report) {
    if (report instanceof RunReport.Measured m) {
      return WorkerMessage.newBuilder().setRunResult(result(block, run, m)).build();
    }
    RunReport.Failed f = (RunReport.Failed) report;
    return WorkerMessage.newBuilder().setRunFailure(RunFailure.newBuilder()
        .setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId())
        .setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setKind(f.kind())
        .setMessage(f.message())
        .setConsoleTail(f.consoleTail())
        .setTelemetry(f.telemetry()))
        .build();
  }

  private static RunResult result(BlockAssignment block, RunAssignment run, RunReport.Measured m) {
    RunResult.Builder result = RunResult.newBuilder()
        .setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId())
        .setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setTelemetry(m.telemetry());
    m.samples().forEach(s -> result.addSamples(sample(s)));
    m.guestCounters().forEach(c -> result.addGuestCounters(telemetryOf(c)));
    return result.addAllParseErrors(m.parseErrors())
        .setParseErrorsOmitted(m.parseErrorsOmitted())
        .build();
  }

  static MetricSample sample(GuestSample s) {
    return MetricSample.newBuilder()
        .setMetric(s.metric())
        .setValue(s.value())
        .setUnit(s.unit())
        .setBetter(s.better().wire())
        .setIteration(s.iteration())
        .setWarmup(s.warmup())
        .build();
  }

  static MetricTelemetry telemetryOf(GuestCounters c) {
    MetricTelemetry.Builder t = MetricTelemetry.newBuilder()
        .setMetric(c.metric()).setWork(c.work()).setWorkUnit(c.workUnit())
        .putAllInterrupts(c.interrupts()).setContextSwitches(c.contextSwitches())
        .setInterruptsTotal(c.interruptsTotal())
        .addAllWakeupsPerCpu(c.wakeupsPerCpu())
        .addAllThreadRates(c.threadRates());
    c.interruptsPerCpu().forEach((row, counts) -> t.putInterruptsPerCpu(row,
        MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    c.softirqsPerCpu().forEach((row, counts) -> t.putSoftirqsPerCpu(row,
        MetricTelemetry.PerCpu.newBuilder().addAllCounts(counts).build()));
    return t.build();
  }
}
