package dev.abfleet.model;

/** What a user workload's command may be: the spec loaders check it, the worker packs it. */
public final class WorkloadLimits {
  private WorkloadLimits() {}

  /** The run's timeout when the benchmark gives none (proto Workload.timeout_s = 0), seconds. */
  public static final int DEFAULT_TIMEOUT_S = 600;

  /** fleetbench reads at most this much of the run command, bytes. */
  public static final int MAX_RUN_BYTES = 64 * 1024;
}
