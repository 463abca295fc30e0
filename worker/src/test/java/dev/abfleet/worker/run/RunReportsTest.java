package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.guest.Better;
import dev.abfleet.worker.guest.GuestCounters;
import dev.abfleet.worker.guest.GuestSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A RunReport on the wire: the run's identity from the block and run, the rest from the report. */
class RunReportsTest {
  static final BlockAssignment BLOCK = BlockAssignment.newBuilder()
      .setExperimentId("e1").setBlockId("e1-p0").setLeaseEpoch(7).build();
  static final RunAssignment RUN = RunAssignment.newBuilder().setRunId("e1-p0-base").build();
  static final RunTelemetry TELEMETRY = RunTelemetry.newBuilder().setHostId("h1").setRunMs(1234).build();

  @Test
  void aMeasuredReportIsARunResultWithItsSamplesCountersAndBadLines() {
    var report = new RunReport.Measured(
        List.of(new GuestSample("seq_read", 1.5, "MiB/s", Better.HIGHER, 0, true),
            new GuestSample("seq_read", 2.5, "MiB/s", Better.HIGHER, 1, false)),
        List.of(new GuestCounters("seq_read", 64, "MiB", Map.of("virtio0", 12L), 300, 40)),
        List.of("line 3: not JSON"), 2, TELEMETRY);

    WorkerMessage wire = RunReports.toWire(BLOCK, RUN, report);

    assertThat(wire.hasRunResult()).isTrue();
    var r = wire.getRunResult();
    assertThat(List.of(r.getRunId(), r.getExperimentId(), r.getBlockId())).containsExactly("e1-p0-base", "e1", "e1-p0");
    assertThat(r.getLeaseEpoch()).isEqualTo(7);
    assertThat(r.getTelemetry()).isEqualTo(TELEMETRY);
    assertThat(r.getSamplesList()).extracting(s -> s.getValue() + " " + s.getUnit() + " " + s.getBetter() + " "
        + s.getIteration() + " " + s.getWarmup())
        .containsExactly("1.5 MiB/s higher 0 true", "2.5 MiB/s higher 1 false");
    assertThat(r.getGuestCounters(0).getWorkUnit()).isEqualTo("MiB");
    assertThat(r.getGuestCounters(0).getInterruptsMap()).containsEntry("virtio0", 12L);
    assertThat(r.getGuestCounters(0).getContextSwitches()).isEqualTo(300);
    assertThat(r.getParseErrorsList()).containsExactly("line 3: not JSON");
    assertThat(r.getParseErrorsOmitted()).isEqualTo(2);
  }

  @Test
  void aFailedReportIsARunFailureWithItsKindMessageAndConsoleTail() {
    var report = new RunReport.Failed(FailureKind.TIMEOUT, "VM killed at its timeout", "[  5.1] hung", TELEMETRY);

    var f = RunReports.toWire(BLOCK, RUN, report).getRunFailure();

    assertThat(List.of(f.getRunId(), f.getExperimentId(), f.getBlockId())).containsExactly("e1-p0-base", "e1", "e1-p0");
    assertThat(f.getLeaseEpoch()).isEqualTo(7);
    assertThat(f.getKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(f.getMessage()).isEqualTo("VM killed at its timeout");
    assertThat(f.getConsoleTail()).isEqualTo("[  5.1] hung");
    assertThat(f.getTelemetry()).isEqualTo(TELEMETRY);
  }

  @Test
  void withTelemetryKeepsTheRestOfTheReport() {
    var report = new RunReport.Failed(FailureKind.BOOT, "no harness", "tail", TELEMETRY);

    RunReport stamped = report.withTelemetry(TELEMETRY.toBuilder().setStartedAtMs(5).build());

    assertThat(stamped).isEqualTo(new RunReport.Failed(FailureKind.BOOT, "no harness", "tail",
        TELEMETRY.toBuilder().setStartedAtMs(5).build()));
  }
}
