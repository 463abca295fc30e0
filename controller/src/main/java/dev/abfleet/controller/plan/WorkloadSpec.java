package dev.abfleet.controller.plan;

/**
 * A user workload run in the guest instead of the built-in harness.
 *
 * @param files the workload's files packed as a gzip newc cpio layer (unpacks under /workload)
 * @param run shell command run by /bin/sh -c in the benchmark's volume directory
 * @param output "jsonl" or "gobench": how its standard output is read
 * @param timeoutS seconds the run may take before the guest kills it; 0 = {@link #DEFAULT_TIMEOUT_S}
 */
public record WorkloadSpec(ArtifactRef files, String run, String output, int timeoutS) {
  public static final int DEFAULT_TIMEOUT_S = 600;
  /** Seconds a boot needs beyond the workload's own run: kernel boot, image unpacking, power-off. */
  public static final int BOOT_MARGIN_S = 120;

  public WorkloadSpec {
    run = run == null ? "" : run;
    output = output == null || output.isEmpty() ? "jsonl" : output;
  }

  /** The run's time limit in seconds, the default applied. */
  public int effectiveTimeoutS() {
    return timeoutS == 0 ? DEFAULT_TIMEOUT_S : timeoutS;
  }
}
