package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunResult;
import org.junit.jupiter.api.Test;

class ProtoToDomainTest {

  @Test
  void countsTheParseErrorsAWorkerOmittedAlongWithThoseItListed() {
    RunResult.Builder r = RunResult.newBuilder().setRunId("r1").setLeaseEpoch(1)
        .addSamples(MetricSample.newBuilder().setMetric("m").setValue(1).setUnit("ops/s").setBetter("higher"))
        .setParseErrorsOmitted(99_980);
    for (int i = 1; i <= 20; i++) {
      r.addParseErrors("line " + i + ": not a JSON object: garbage");
    }

    var outcome = ProtoToDomain.outcome(r.build(), "h1");

    assertThat(outcome.message()).isEqualTo("100000 result lines did not parse, first: line 1: not a JSON object: garbage");
  }
}
