package dev.abfleet.cli.experiments;

import dev.abfleet.config.Problem;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code abfleet experiments list|show|watch|cancel|logs}: the experiments a running controller (any
 * node of a cluster) knows, one at a time or all of them.
 */
@Command(
    name = "experiments",
    mixinStandardHelpOptions = true,
    description = "List the controller's experiments, show one's report, follow one, cancel one, print its boots' console logs.",
    subcommands = {
      ListExperimentsCommand.class,
      ShowExperimentCommand.class,
      WatchExperimentCommand.class,
      CancelExperimentCommand.class,
      ExperimentLogsCommand.class
    })
public final class ExperimentsCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new Problem("experiments: missing subcommand; use one of: list, show ID, watch ID,"
        + " cancel ID, logs ID (see: abfleet experiments --help)");
  }
}
