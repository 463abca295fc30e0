package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet experiments cancel ID}: stops a running experiment; its blocks end at once. */
@Command(name = "cancel", mixinStandardHelpOptions = true,
    description = "Cancel a running experiment: its boots stop, its hosts go to others. An"
        + " experiment that already ended is left as it is.")
final class CancelExperimentCommand implements Callable<Integer> {
  @Mixin
  ControllerOption options;

  @Parameters(paramLabel = "ID", description = "Experiment id, as `abfleet experiments list` shows it.")
  String id;

  @Option(names = "--reason", defaultValue = "cancelled from the command line", paramLabel = "TEXT",
      description = "Why, recorded as the experiment's message (default: ${DEFAULT-VALUE}).")
  String reason;

  @Override
  public Integer call() {
    ExperimentIdArg.checked(id);
    String before = options.call(ControllerOption.ONE_SHOT_LIMIT, client -> client.get(id)).getState();
    Experiment e = options.call(ControllerOption.ONE_SHOT_LIMIT, client -> client.cancelAndGet(id, reason));
    if (!before.equals("running")) {
      System.out.println("experiment " + id + " had already ended: " + e.getState());
    } else {
      System.out.println("experiment " + id + " " + e.getState() + " after "
          + e.getPairsDone() + "/" + e.getPairsWanted() + " pairs");
    }
    return ExitCodes.OK;
  }
}
