package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.FailureKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunClassifierTest {
  private static BootFacts healthy() {
    return BootFacts.exited(0).harness(true, true).build();
  }

  @Test
  void healthyBootIsOk() {
    assertThat(RunClassifier.classify(healthy()).ok()).isTrue();
  }

  @Test
  void stagingErrorIsInfra() {
    var f = BootFacts.stagingFailed("sha256 mismatch");
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.INFRA);
  }

  @Test
  void missingQemuIsInfra() {
    var f = BootFacts.exited(-1).launchError(Optional.of("qemu-system-x86_64 not found")).build();
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.INFRA);
  }

  @Test
  void bootWhoseOutputPassedItsCapIsHarnessFailureEvenWithSamples() {
    var f = BootFacts.exited(-1)
        .outputOverCap(Optional.of("results.log grew to 1100000 bytes, past its cap of 1048576 bytes"))
        .harness(true, false)
        .build();
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("results.log grew to 1100000 bytes");
  }

  @Test
  void killedVmIsTimeoutEvenWithPartialResults() {
    var f = BootFacts.exited(-1).timedOut(true).harness(true, false).missingMetrics(List.of("find_recursive", "rm_rf"))
        .build();
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(c.message()).isEqualTo(
        "VM killed at its timeout while the harness was running (no value yet for find_recursive, rm_rf)");
  }

  @Test
  void exitWithoutHarnessStartIsBootFailure() {
    var f = BootFacts.exited(0).harness(false, false).missingMetrics(List.of("metadata_stat")).build();
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.BOOT);
    assertThat(c.message()).contains("code 0");
  }

  @Test
  void missingMetricIsHarnessFailure() {
    var f = BootFacts.exited(0).harness(true, true).missingMetrics(List.of("seq_read")).build();
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("seq_read");
  }

  @Test
  void aVmThatEndedMidHarnessSaysItsExitCodeBesideTheMissingMetrics() {
    var f = BootFacts.exited(0).harness(true, false).missingMetrics(List.of("seq_read", "rm_rf")).build();

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo("harness reported no value for seq_read, rm_rf; the VM exited with code 0"
        + " before the harness's done line (see the console tail)");
  }

  @Test
  void harnessErrorEventIsHarnessFailure() {
    var f = BootFacts.exited(0).harness(true, true).harnessErrors(List.of("seq_read: ENOSPC")).build();
    assertThat(RunClassifier.classify(f).kind()).isEqualTo(FailureKind.HARNESS);
  }

  @Test
  void missingDoneLineIsHarnessFailure() {
    var f = BootFacts.exited(137).harness(true, false).build();
    var c = RunClassifier.classify(f);
    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo("harness stopped before its done line; the VM exited with code 137"
        + " before the harness's done line (see the console tail)");
  }

  @Test
  void aGuestThatCouldNotMountItsVolumeIsAConfigurationErrorNotABootFailure() {
    var f = BootFacts.exited(0).harness(false, false)
        .setupErrors(List.of("mount -t 9p abfleet-vol: mounting abfleet-vol on /mnt/host failed: No such device"))
        .build();

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.CONFIG);
    assertThat(c.message()).isEqualTo(
        "guest setup failed: mount -t 9p abfleet-vol: mounting abfleet-vol on /mnt/host failed: No such device");
  }

  @Test
  void aFailedWorkloadIsHarnessWithItsMessage() {
    var f = BootFacts.exited(0).harness(true, true)
        .workloadProblem(Optional.of(
            "workload exited with status 1; first bad line: stdout line 1 'oops' (not a JSON object)"))
        .build();

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).isEqualTo(f.workloadProblem().orElseThrow());
  }

  @Test
  void aWorkloadOverTheOutputCapSaysTheCapAndItsLastLine() {
    var f = BootFacts.exited(-1)
        .outputOverCap(Optional.of("results.log grew to 1100000 bytes, past its cap of 1048576 bytes"))
        .harness(true, false)
        .workloadProblem(Optional.of("the workload flooded the guest's output; last line it printed"
            + " (stdout line 9000): 'y'"))
        .build();

    var c = RunClassifier.classify(f);

    assertThat(c.kind()).isEqualTo(FailureKind.HARNESS);
    assertThat(c.message()).contains("past its cap of 1048576 bytes").endsWith("(stdout line 9000): 'y'");
  }
}
