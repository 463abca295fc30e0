package dev.abfleet.cli;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.worker.guest.WorkloadPack;
import dev.abfleet.worker.guest.WorkloadPackException;
import java.nio.file.Path;

/**
 * Packs the workload directory a spec's benchmark names into its files artifact (sha256, uri
 * of the packed layer in the cache, size) before the spec is submitted. Interim: this belongs
 * with the other guest artifacts a client attaches to a spec, in one place.
 */
final class WorkloadFiles {
  private WorkloadFiles() {}

  /**
   * {@code spec} with its workload's files packed; {@code spec} itself without a workload or
   * when they already are.
   *
   * @param cacheDir where the packed layer is cached ($ABFLEET_HOME)
   * @throws Problem the directory cannot be packed (the message names the path and the fix)
   */
  static ExperimentSpec attach(ExperimentSpec spec, Path cacheDir) {
    if (!spec.getBenchmark().hasWorkload() || !spec.getBenchmark().getWorkload().getFiles().getSha256().isEmpty()) {
      return spec;
    }
    Path dir = Path.of(spec.getBenchmark().getWorkload().getFiles().getUri());
    WorkloadPack.Packed packed;
    try {
      packed = WorkloadPack.pack(dir, cacheDir);
    } catch (WorkloadPackException e) {
      throw new Problem(e.getMessage());
    }
    ExperimentSpec.Builder b = spec.toBuilder();
    b.getBenchmarkBuilder().getWorkloadBuilder().setFiles(Artifact.newBuilder()
        .setSha256(packed.sha256()).setUri(packed.path().toString()).setSizeBytes(packed.bytes()));
    return b.build();
  }
}
