package dev.abfleet.controller.experiment;

/**
 * A user workload run in each boot instead of the harness's metrics (see Workload in
 * common.proto); carried from the submission to every run unchanged.
 *
 * @param files the packed files layer, content-addressed
 * @param run shell command run in the guest in the benchmark's volume directory
 * @param output "jsonl" or "gobench"; empty = jsonl
 * @param timeoutS seconds before the guest kills the run; 0 = 600
 */
public record WorkloadSpec(ArtifactRef files, String run, String output, int timeoutS) {
  public WorkloadSpec {
    files = files == null ? new ArtifactRef("", "", 0) : files;
    run = run == null ? "" : run;
    output = output == null ? "" : output;
  }
}
