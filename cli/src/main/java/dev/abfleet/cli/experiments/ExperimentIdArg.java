package dev.abfleet.cli.experiments;

import dev.abfleet.config.Problem;
import dev.abfleet.controller.experiment.ExperimentIds;

/** The ID parameter of the experiments commands, checked before any controller is called. */
final class ExperimentIdArg {
  private ExperimentIdArg() {}

  /** {@code id} when it is a valid experiment id; otherwise a {@link Problem} naming it and the form. */
  static String checked(String id) {
    ExperimentIds.check("ID", id).ifPresent(problem -> {
      throw new Problem(problem);
    });
    return id;
  }
}
