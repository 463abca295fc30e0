package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import dev.abfleet.controller.artifact.ArtifactStore;
import dev.abfleet.controller.artifact.StoreException;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The blocking work of a run, done off the actor: finding its kernels, putting them into the
 * controller's artifact store, and making the spec that is submitted.
 */
final class RunPreparation {
  private final Kernels kernels;
  private final StoredArtifacts artifacts;
  private final ArtifactStore store;
  private final UnaryOperator<ExperimentSpec> preparer;

  RunPreparation(Path configDir, ArtifactStore store, UnaryOperator<ExperimentSpec> preparer) {
    this.kernels = new Kernels(configDir);
    this.artifacts = new StoredArtifacts(store);
    this.store = store;
    this.preparer = preparer;
  }

  /**
   * Finds the run's kernels and stores them (content addressed), so that the candidate can be a
   * later run's baseline after its build directory has moved on.
   *
   * @throws NightlyProblem a kernel is missing, with the fix
   */
  NightlyEvent.RunStarted start(NightlySchedule s, Instant due, String id, Optional<RunRecord> lastAccepted) {
    RunRecord.Artifact candidate = kernels.candidate(s);
    artifacts.put(Path.of(candidate.path()), candidate.sha256());
    RunRecord.Artifact baseline;
    if (s.aa()) {
      baseline = candidate;
    } else if (s.baseline().kind().equals("last_accepted") && lastAccepted.isPresent()) {
      baseline = lastAccepted(s, lastAccepted.get());
    } else {
      baseline = kernels.baselineFile(s);
      artifacts.put(Path.of(baseline.path()), baseline.sha256());
    }
    return new NightlyEvent.RunStarted(s.name(), due.toString(), id, baseline, candidate, s.simulation());
  }

  /** The last accepted candidate: from the store, or put there again from its path if it was evicted. */
  private RunRecord.Artifact lastAccepted(NightlySchedule s, RunRecord run) {
    RunRecord.Artifact a = run.candidate();
    if (artifacts.has(a.sha256())) {
      return a;
    }
    Path p = Path.of(a.path());
    if (Files.isRegularFile(p) && Kernels.sha256(p).equals(a.sha256())) {
      artifacts.put(p, a.sha256());
      return a;
    }
    throw new NightlyProblem(s.where() + ": the last accepted kernel (sha256 " + a.sha256() + ", run "
        + run.experiment() + ") is neither in the controller's artifact store nor at " + p
        + "; restore it there or set baseline: {pinned: KERNEL}");
  }

  /** The spec of a started run, guests prepared and every file named by its hash in the store. */
  ExperimentSpec spec(NightlySchedule s, NightlyEvent.RunStarted run) {
    ExperimentSpec spec = NightlyRuns.spec(s, stored(run.baseline(), s), stored(run.candidate(), s),
        size(run.baseline()), size(run.candidate()));
    return artifacts.storeFiles(preparer.apply(spec));
  }

  /**
   * Sim hosts read no kernel: their arms keep the path. Real ones stage it from the store. The
   * preparer reads the kernel's architecture from a readable path, so that is kept while it holds
   * the same bytes; {@link StoredArtifacts#storeFiles} then names it by hash.
   */
  private RunRecord.Artifact stored(RunRecord.Artifact a, NightlySchedule s) {
    Path p = Path.of(a.path());
    if (s.simulation() || (Files.isRegularFile(p) && Kernels.sha256(p).equals(a.sha256()))) {
      return a;
    }
    return new RunRecord.Artifact(StoredArtifacts.PREFIX + a.sha256(), a.sha256());
  }

  private long size(RunRecord.Artifact a) {
    try {
      long held = store.status(a.sha256()).heldBytes();
      return held > 0 ? held : new File(a.path()).length();
    } catch (StoreException e) {
      return new File(a.path()).length();
    }
  }
}
