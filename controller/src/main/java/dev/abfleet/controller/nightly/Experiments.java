package dev.abfleet.controller.nightly;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.util.concurrent.CompletionStage;

/** How the {@link Nightly} actor submits and follows experiments (the controller's own, in production). */
public interface Experiments {
  /**
   * Submits {@code spec} under {@code id}; the same id with the same spec again is accepted once.
   * Fails with a message naming the bad field for a spec the controller refuses.
   */
  CompletionStage<String> submit(String id, ExperimentSpec spec);

  /** The experiment now; state "unknown" when nothing was submitted under {@code id}. */
  CompletionStage<Experiment> get(String id);
}
