package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.GetNightlyRunResponse;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import io.grpc.StatusRuntimeException;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet nightly}: the controller's schedules, and running one of them now. */
@Command(
    name = "nightly",
    mixinStandardHelpOptions = true,
    description = {
      "List the schedules the controller fires (those of its fleet.yaml, abfleet controller --config),",
      "with their next fire time and last run. The controller runs them at their cron times: resolves",
      "the candidate and baseline kernels on its machine, submits an experiment (priority nightly),",
      "and keeps each run's verdict in its store (see abfleet history); no process of yours needs to run.",
      "With --once NAME, run that schedule now, follow it and exit: 0 accepted, 1 a gating metric",
      "regressed, 3 the experiment did not complete.",
      "A schedule on hosts.hypervisor sim gives SIMULATION results, labelled so on every line."
    })
public final class NightlyCommand implements Callable<Integer> {
  /** How often --once asks how its run is going. */
  static final Duration FOLLOW_EVERY = Duration.ofSeconds(1);

  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--config", paramLabel = "FILE", hidden = true,
      description = "No longer read: the controller runs the schedules of its own --config.")
  Path config;

  @Option(names = "--once", paramLabel = "NAME", description = "Run this schedule now, follow it, and exit.")
  String once;

  @Override
  public Integer call() throws InterruptedException {
    String target = ControllerAddress.check(controller, auth);
    if (config != null) {
      System.err.println("abfleet: nightly: --config " + config + " is not read: the controller fires the schedules"
          + " of its own fleet.yaml (abfleet controller --config FILE)");
    }
    try (NightlyClient client = new NightlyClient(target)) {
      if (once != null) {
        try (ExperimentClient experiments = new ExperimentClient(target)) {
          return once(client, once, pairs(experiments), System.out, System.err);
        }
      }
      list(client, System.out);
      return ExitCodes.OK;
    }
  }

  static void list(NightlyClient client, PrintStream out) {
    var schedules = client.schedules();
    if (schedules.isEmpty()) {
      out.println("no schedules: the controller's fleet.yaml has no schedules: list (see the example in fleet.yaml;"
          + " restart the controller with --config FILE)");
      return;
    }
    for (ScheduleInfo s : schedules) {
      out.println(s.getName() + "  cron '" + s.getCron() + "' (" + s.getZone() + ")  next "
          + (s.getNextFire().isEmpty() ? "never" : s.getNextFire())
          + "  last " + (s.hasLastRun() ? lastRun(s.getLastRun()) : "none")
          + (s.getRunningCount() > 0 ? "  running " + String.join(",", s.getRunningList()) : "")
          + (s.getSimulation() ? "  SIMULATION" : ""));
    }
    if (schedules.stream().anyMatch(ScheduleInfo::getSimulation)) {
      out.println(NightlySchedules.SIMULATION);
    }
  }

  private static String lastRun(NightlyRun r) {
    return r.getExperimentId() + " " + r.getState() + (r.getOverall().isEmpty() ? "" : " overall=" + r.getOverall())
        + " accepted=" + (r.getAccepted() ? "yes" : "no");
  }

  /** "N/M pairs" of a submitted experiment; empty before the controller has submitted it. */
  static Function<String, Optional<String>> pairs(ExperimentClient experiments) {
    return id -> {
      try {
        Experiment e = experiments.get(id);
        return Optional.of(e.getPairsDone() + "/" + e.getPairsWanted() + " pairs");
      } catch (StatusRuntimeException notYet) {
        return Optional.empty();
      }
    };
  }

  /**
   * Triggers the schedule, waits for its run to finish (saying on {@code err} how far it got) and
   * prints its summary line.
   */
  static int once(NightlyClient client, String name, Function<String, Optional<String>> progress, PrintStream out,
      PrintStream err) throws InterruptedException {
    String id = client.trigger(name);
    err.println("abfleet: nightly: " + name + ": run " + id);
    String last = "";
    GetNightlyRunResponse run = client.run(id);
    while (!run.getState().equals("finished")) {
      String now = run.getState() + progress.apply(id).map(p -> ", " + p).orElse("");
      if (!now.equals(last)) {
        err.println("abfleet: " + id + ": " + now);
        last = now;
      }
      Thread.sleep(FOLLOW_EVERY.toMillis());
      run = client.run(id);
    }
    NightlyRun r = run.getRun();
    if (!r.getMessage().isEmpty()) {
      err.println("abfleet: " + id + " " + r.getState() + ": " + r.getMessage());
    }
    out.println(summary(r));
    return exitCode(r);
  }

  /** One line per run; a run on sim hosts ends with " SIMULATION". */
  static String summary(NightlyRun e) {
    return e.getDate() + " " + e.getSchedule() + " " + e.getExperimentId() + " " + e.getState()
        + (e.getOverall().isEmpty() ? "" : " overall=" + e.getOverall())
        + " accepted=" + (e.getAccepted() ? "yes" : "no") + (e.getSimulation() ? " SIMULATION" : "");
  }

  /** Exit code of a --once run: 0 accepted, 1 a gating metric regressed, 3 not completed. */
  static int exitCode(NightlyRun e) {
    if (!e.getState().equals("completed")) {
      return ExitCodes.FAILED;
    }
    return e.getAccepted() ? ExitCodes.OK : ExitCodes.GATE;
  }
}
