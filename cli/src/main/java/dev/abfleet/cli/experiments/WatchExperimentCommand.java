package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.Progress;
import dev.abfleet.cli.Reconnect;
import dev.abfleet.cli.ReportFormat;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code abfleet experiments watch ID}: progress on stderr until the experiment ends, then its
 * report on stdout. Stopping the watch (Ctrl-C) leaves the experiment running.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
    description = "Follow an experiment (one line per boot on stderr) and print its report when it"
        + " ends. Exit 0 when it completed, 3 when it was cancelled or failed. Ctrl-C stops"
        + " watching only.")
final class WatchExperimentCommand implements Callable<Integer> {
  @Mixin
  ControllerOption options;

  @Parameters(paramLabel = "ID", description = "Experiment id, as `abfleet experiments list` shows it.")
  String id;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "Report format: text, markdown, json or html (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    ExperimentIdArg.checked(id);
    ReportFormat fmt = ReportFormat.parse(format);
    Progress progress = new Progress(System.err);
    Experiment done = options.call(Reconnect.DEFAULT_LIMIT, client -> client.watch(id, progress::onChange));
    System.out.print(fmt.render(done));
    if (!done.getState().equals("completed")) {
      System.err.println("abfleet: experiment " + id + " " + done.getState() + ": " + done.getMessage());
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }
}
