package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ReportFormat;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet experiments show ID} (and {@code abfleet report ID}): the experiment's report as it stands. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Print an experiment's report as it stands now (running ones: the pairs so far).")
class ShowExperimentCommand implements Callable<Integer> {
  @Mixin
  ControllerOption options;

  @Parameters(paramLabel = "ID", description = "Experiment id, as `abfleet experiments list` shows it.")
  String id;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text, markdown, json or html (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    ExperimentIdArg.checked(id);
    ReportFormat fmt = ReportFormat.parse(format);
    Experiment e = options.call(ControllerOption.ONE_SHOT_LIMIT, client -> client.get(id));
    System.out.print(fmt.render(e));
    return ExitCodes.OK;
  }
}
