package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.FailureKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunClassifierTest {
  private static BootFacts healthy() {
    return new BootFacts(null, null, null, false, 0, true, true, List.of(), List.of());
  }

  @Test
  void healthyBootIsOk() {
    assertThat(RunClassifier.classify(healthy()).ok()).isTrue();
  }

  @Test
  void stagingErrorIsInfra() {
    var f = new BootFacts("sha256 mismatch", null, null, false, 0, false, false, List.of(), List.of());
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.INFRA);
  }

  @Test
  void missingQemuIsInfra() {
    var f = new BootFacts(null, "qemu-system-x86_64 not found", null, false, -1, false, false, List.of(), List.of());
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.INFRA);
  }

  @Test
  void bootWhoseOutputPassedItsCapIsHarnessFailureEvenWithSamples() {
    var f = new BootFacts(null, null, "results.log grew to 1100000 bytes, past its cap of 1048576 bytes",
        false, -1, true, false, List.of(), List.of());
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("results.log grew to 1100000 bytes");
  }

  @Test
  void killedVmIsTimeoutEvenWithPartialResults() {
    var f = new BootFacts(null, null, null, true, -1, true, false, List.of("find_recursive", "rm_rf"), List.of());
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(c.message()).isEqualTo(
        "VM killed at its timeout while the harness was running (no value yet for find_recursive, rm_rf)");
  }

  @Test
  void exitWithoutHarnessStartIsBootFailure() {
    var f = new BootFacts(null, null, null, false, 0, false, false, List.of("metadata_stat"), List.of());
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.BOOT);
    assertThat(c.message()).contains("code 0");
  }

  @Test
  void missingMetricIsHarnessFailure() {
    var f = new BootFacts(null, null, null, false, 0, true, true, List.of("seq_read"), List.of());
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("seq_read");
  }

  @Test
  void aVmThatEndedMidHarnessSaysItsExitCodeBesideTheMissingMetrics() {
    var f = new BootFacts(null, null, null, false, 0, true, false, List.of("seq_read", "rm_rf"), List.of());

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo("harness reported no value for seq_read, rm_rf; the VM exited with code 0"
        + " before the harness's done line (see the console tail)");
  }

  @Test
  void harnessErrorEventIsHarnessFailure() {
    var f = new BootFacts(null, null, null, false, 0, true, true, List.of(), List.of("seq_read: ENOSPC"));
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.HARNESS);
  }

  @Test
  void missingDoneLineIsHarnessFailure() {
    var f = new BootFacts(null, null, null, false, 137, true, false, List.of(), List.of());
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo("harness stopped before its done line; the VM exited with code 137"
        + " before the harness's done line (see the console tail)");
  }

  @Test
  void aGuestThatCouldNotMountItsVolumeIsAConfigurationErrorNotABootFailure() {
    var f = new BootFacts(null, null, null, false, 0, false, false, List.of(), List.of(),
        List.of("mount -t 9p abfleet-vol: mounting abfleet-vol on /mnt/host failed: No such device"));

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.CONFIG);
    assertThat(c.message()).isEqualTo(
        "guest setup failed: mount -t 9p abfleet-vol: mounting abfleet-vol on /mnt/host failed: No such device");
  }

  @Test
  void aFailedWorkloadIsHarnessWithItsMessage() {
    var f = new BootFacts(null, null, null, false, 0, true, true, List.of(), List.of(), List.of(),
        "workload exited with status 1; first bad line: stdout line 1 'oops' (not a JSON object)");

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo(f.workloadProblem());
  }

  @Test
  void aWorkloadOverTheOutputCapSaysTheCapAndItsLastLine() {
    var f = new BootFacts(null, null, "results.log grew to 1100000 bytes, past its cap of 1048576 bytes", false, -1,
        true, false, List.of(), List.of(), List.of(), "the workload flooded the guest's output; last line it printed"
        + " (stdout line 9000): 'y'");

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("past its cap of 1048576 bytes").endsWith("(stdout line 9000): 'y'");
  }
}
