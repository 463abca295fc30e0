package dev.abfleet.cli.nightly;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;

/** Submits an experiment under a client-chosen id and returns it once it is terminal. */
@FunctionalInterface
public interface ExperimentRunner {
  /**
   * @param id the experiment id; submitting the same id again returns the same experiment, so
   *     a restarted runner picks up a run it had submitted before
   */
  Experiment run(String id, ExperimentSpec spec);
}
