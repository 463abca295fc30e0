package dev.abfleet.worker.sim;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.run.GuestRunProcedure;
import dev.abfleet.worker.run.RunProcedure;
import dev.abfleet.worker.run.RunReport;
import java.io.IOException;
import java.util.Map;

/**
 * The run procedure of a sim-only worker: the real {@link GuestRunProcedure} (staging by hash,
 * boot, results parser, classifier, report) over a {@link SimDriver}, except that a run asking
 * for the built-in harness initramfs gets the placeholder initrd instead, so a sim worker needs
 * no compiler, busybox or initramfs build.
 */
public final class SimRunProcedure implements RunProcedure {
  private final RunProcedure guest;
  private final Artifact placeholderInitrd;

  SimRunProcedure(RunProcedure guest, Artifact placeholderInitrd) {
    this.guest = guest;
    this.placeholderInitrd = placeholderInitrd;
  }

  /** A procedure booting only on {@code driver}; writes the placeholder initrd under the home. */
  public static SimRunProcedure create(WorkerSettings settings, SimDriver driver) throws IOException {
    return new SimRunProcedure(
        new GuestRunProcedure(settings, Map.of(SimDriver.NAME, driver)), SimArtifacts.initrd(settings.home()));
  }

  @Override
  public RunReport execute(BlockAssignment block, RunAssignment run) throws InterruptedException {
    RunAssignment sim = run.getBoot().getInitrd().getSha256().isEmpty() ? run.toBuilder().setBoot(run.getBoot().toBuilder().setInitrd(placeholderInitrd)).build() : run;
    return guest.execute(block, sim);
  }
}
