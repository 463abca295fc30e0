package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static Boot boot(String run, String status) {
    Boot.Builder b = Boot.newBuilder().setRunId(run).setArm("cand").setHostId("h1").setPairIndex(3).setOrderInPair(1)
        .setStatus(status)
        .setTelemetry(RunTelemetry.newBuilder().setHypervisor("qemu").setAccelerator("tcg").setBootMs(2300).setRunMs(7900));
    for (double v : new double[] {40000, 50300, 50100, 60000}) {
      b.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(v));
    }
    b.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(1).setWarmup(true));
    return b.build();
  }

  @Test
  void bootLineShowsPlacementTimingAndMedianOfMeasuredIterations() {
    String line = Progress.line(Experiment.getDefaultInstance(), boot("r1", "ok"));
    assertThat(line).contains("pair 3.1").contains("cand").contains("h1").contains("qemu/tcg")
        .contains("boot 2.3s run 7.9s").contains("metadata_stat 50.2k");
  }

  @Test
  void failedBootShowsItsStatusAndMessage() {
    Boot failed = boot("r2", "boot_failed").toBuilder().setMessage("kernel did not reach the harness").build();
    assertThat(Progress.line(Experiment.getDefaultInstance(), failed))
        .contains("BOOT_FAILED: kernel did not reach the harness").doesNotContain("metadata_stat");
  }

  @Test
  void eachBootIsPrintedOnceAndPairCountOnChange() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    Experiment e = Experiment.newBuilder().setPairsWanted(8).addBoots(boot("r1", "ok")).build();
    p.onChange(e);
    p.onChange(e);
    p.onChange(e.toBuilder().setPairsDone(1).addBoots(boot("r2", "ok")).build());
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out.lines().filter(l -> l.contains("pair 3.1"))).hasSize(2);
    assertThat(out).contains("pairs 0/8").contains("pairs 1/8");
  }
}
