package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.FailureKind;

/**
 * Classifies a finished boot. INFRA failures are the host's fault and are retried elsewhere;
 * BOOT, TIMEOUT and HARNESS failures are results about the arm; CONFIG failures say the arm
 * cannot run as configured (its kernel lacks a module the benchmark needs, the volume did not
 * mount): the kernel booted, so they are never counted as a BOOT failure of the kernel.
 */
public final class RunClassifier {
  private RunClassifier() {}

  /** The outcome of a boot: ok (kind null) or a failure kind with a one-line message. */
  public record Classification(FailureKind kind, String message) {
    public boolean ok() {
      return kind == null;
    }
  }

  public static Classification classify(BootFacts f) {
    if (f.stagingError().isPresent()) {
      return new Classification(FailureKind.INFRA, "staging failed: " + f.stagingError().get());
    }
    if (f.launchError().isPresent()) {
      return new Classification(FailureKind.INFRA, "VM did not start: " + f.launchError().get());
    }
    if (f.outputOverCap().isPresent()) {
      return new Classification(FailureKind.HARNESS, "guest output over its cap (" + f.outputOverCap().get()
          + "): the boot's results are not used" + f.workloadProblem().map(p -> "; " + p).orElse(""));
    }
    if (!f.setupErrors().isEmpty()) {
      return new Classification(FailureKind.CONFIG, "guest setup failed: " + String.join("; ", f.setupErrors()));
    }
    if (f.timedOut()) {
      return new Classification(
          FailureKind.TIMEOUT,
          f.harnessStarted()
              ? "VM killed at its timeout while the harness was running" + notYet(f)
              : "VM killed at its timeout before the harness started (kernel hung during boot?)");
    }
    if (!f.harnessStarted()) {
      return new Classification(
          FailureKind.BOOT,
          "kernel did not reach the harness (VM exited with code " + f.exitCode() + "); see console tail");
    }
    if (!f.harnessErrors().isEmpty()) {
      return new Classification(FailureKind.HARNESS, "harness reported: " + String.join("; ", f.harnessErrors()));
    }
    if (f.workloadProblem().isPresent()) {
      return new Classification(FailureKind.HARNESS, f.workloadProblem().get());
    }
    if (!f.missingMetrics().isEmpty()) {
      return new Classification(FailureKind.HARNESS, "harness reported no value for "
          + String.join(", ", f.missingMetrics()) + (f.harnessDone() ? "" : stoppedEarly(f)));
    }
    if (!f.harnessDone()) {
      return new Classification(FailureKind.HARNESS, "harness stopped before its done line" + stoppedEarly(f));
    }
    return new Classification(null, "ok");
  }

  /** Where a killed harness was: the metrics it had not measured yet, the first being the one it was in. */
  private static String notYet(BootFacts f) {
    return f.missingMetrics().isEmpty() ? "" : " (no value yet for " + String.join(", ", f.missingMetrics()) + ")";
  }

  /** How the VM ended when the harness never wrote its done line: the facts, not a guess. */
  private static String stoppedEarly(BootFacts f) {
    return "; the VM exited with code " + f.exitCode() + " before the harness's done line (see the console tail)";
  }
}
