package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code abfleet nightly accept|reject RUN}: an operator's decision on a held run (one whose gate
 * was inconclusive, so its candidate did not become the baseline).
 */
abstract class NightlyDecideCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RUN", description = "The held run's experiment id, e.g. night-20260310T0230Z.")
  String run;

  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "",
      description = "Why, kept with the run and shown by nightly, history and the dashboard.")
  String reason;

  abstract boolean accept();

  @Override
  public Integer call() {
    try (NightlyClient client = new NightlyClient(ControllerAddress.check(controller, auth))) {
      decide(client, run, accept(), reason, System.out);
    }
    return ExitCodes.OK;
  }

  /** Decides the run and prints it as decided, with what that does to the baseline. */
  static void decide(NightlyClient client, String run, boolean accept, String reason, PrintStream out) {
    if (run.isBlank()) {
      throw new Problem("give the held run's experiment id, e.g. abfleet nightly accept night-20260310T0230Z");
    }
    NightlyRun r = client.decide(run.strip(), accept, reason);
    out.println(NightlyCommand.summary(r) + ": " + r.getDecisionReason());
    out.println(accept
        ? "its candidate is the baseline of the schedule's next run when the schedule's baseline is last_accepted"
            + " and no later run of it is accepted"
        : "the baseline does not move");
  }

  @Command(name = "accept", mixinStandardHelpOptions = true, description = {
      "Accept a held nightly run (its gate was inconclusive): the run becomes accepted, and its",
      "candidate the baseline of a last_accepted schedule's next run, unless a later run of the",
      "schedule is accepted (the baseline is the candidate of the latest accepted run). Final."})
  static final class Accept extends NightlyDecideCommand {
    @Override
    boolean accept() {
      return true;
    }
  }

  @Command(name = "reject", mixinStandardHelpOptions = true, description = {
      "Reject a held nightly run (its gate was inconclusive): the run becomes rejected and the",
      "baseline does not move. Final."})
  static final class Reject extends NightlyDecideCommand {
    @Override
    boolean accept() {
      return false;
    }
  }
}
