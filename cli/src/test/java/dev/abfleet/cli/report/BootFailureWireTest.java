package dev.abfleet.cli.report;

import dev.abfleet.controller.report.ProtoReports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BootFailureComparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.JsonReport;
import dev.abfleet.report.MarkdownReport;
import dev.abfleet.report.TextReport;
import org.junit.jupiter.api.Test;

/**
 * A fleet experiment whose candidate failed 4 of 8 boots, as the controller sends it: the
 * client's report names boot_failures in every format (the reason is derived from the boot
 * failure comparisons on the wire, so no proto field carries it).
 */
class BootFailureWireTest {
  static Experiment panicky() {
    return ReportGoldenTest.fuseCase().toBuilder()
        .clearBootFailures()
        .addBootFailures(BootFailureComparison.newBuilder().setArm("spinwait")
            .setBaselineFailed(0).setBaselineBoots(8).setCandidateFailed(4).setCandidateBoots(8)
            .setPValue(0.038461538461538464).setVerdict("regressed"))
        .setOverall("regressed")
        .build();
  }

  @Test
  void everyFormatSaysRegressedBootFailures() {
    assertThat(TextReport.render(ProtoReports.of(panicky())))
        .contains("verdict: regressed (boot_failures) (")
        .contains("boot failures: stock 0 of 8 boots failed (0%), spinwait 4 of 8 (50%),"
            + " Fisher one-sided p=0.038: regressed");
    assertThat(MarkdownReport.render(ProtoReports.of(panicky())))
        .contains("— **regressed (boot_failures)**");
    assertThat(JsonReport.render(ProtoReports.of(panicky())))
        .contains("\"overall\" : \"regressed\"")
        .contains("\"overall_reasons\" : [ \"boot_failures\" ]");
  }
}
