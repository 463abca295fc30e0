package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.GetNightlyRunResponse;
import dev.abfleet.proto.fleet.v1.GetSeriesRequest;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet nightly}: the controller's schedules, and running one of them now. */
@Command(
    name = "nightly",
    mixinStandardHelpOptions = true,
    subcommands = {NightlyDecideCommand.Accept.class, NightlyDecideCommand.Reject.class},
    description = {
      "List the schedules the controller fires (those of its fleet.yaml, abfleet controller --config),",
      "with their next fire time and last run. The controller runs them at their cron times: resolves",
      "the candidate and baseline kernels on its machine, submits an experiment (priority nightly),",
      "and keeps each run's verdict in its store (see abfleet history); no process of yours needs to run.",
      "A run is accepted (its candidate becomes a last_accepted schedule's baseline) only when its gate",
      "passes; a run whose gate is inconclusive is held, one that regressed is rejected, and neither",
      "moves the baseline. abfleet nightly accept|reject RUN decides a held run.",
      "With --once NAME, run that schedule now, follow it and exit: 0 accepted, 1 held or rejected",
      "(the baseline did not move), 3 the experiment did not complete.",
      "A schedule on hosts.hypervisor sim gives SIMULATION results, labelled so on every line."
    })
public final class NightlyCommand implements Callable<Integer> {
  /** How often --once asks how its run is going. */
  static final Duration FOLLOW_EVERY = Duration.ofSeconds(1);

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--config", paramLabel = "FILE", hidden = true,
      description = "No longer read: the controller runs the schedules of its own --config.")
  Path config;

  @Option(names = "--once", paramLabel = "NAME", description = "Run this schedule now, follow it, and exit.")
  String once;

  @Override
  public Integer call() throws InterruptedException {
    if (controller == null) {
      throw new dev.abfleet.config.Problem("--controller HOST:PORT is required: the controller runs the schedules");
    }
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
      if (s.hasLastRun()) {
        held(client, s).forEach(r -> out.println("  held " + r.getExperimentId() + " (" + r.getDate() + "): "
            + r.getDecisionReason()));
      }
    }
    if (schedules.stream().anyMatch(ScheduleInfo::getSimulation)) {
      out.println(NightlySchedules.SIMULATION);
    }
  }

  /**
   * The schedule's held runs, oldest first. GetSeries answers every finished run of the schedule
   * whatever the metric; the last run's first metric keeps its change-point scan meaningful.
   */
  static List<NightlyRun> held(NightlyClient client, ScheduleInfo s) {
    String metric = s.getLastRun().getMetricsCount() > 0 ? s.getLastRun().getMetrics(0).getMetric() : "-";
    return client.series(GetSeriesRequest.newBuilder().setSchedule(s.getName()).setMetric(metric).build())
        .getRunsList().stream().filter(r -> r.getDecision().equals("held")).toList();
  }

  private static String lastRun(NightlyRun r) {
    return r.getExperimentId() + " " + r.getState() + (r.getOverall().isEmpty() ? "" : " overall=" + r.getOverall())
        + " " + decision(r);
  }

  /** "decision=held" etc.; "accepted=yes|no" for a run recorded without a decision. */
  static String decision(NightlyRun r) {
    return r.getDecision().isEmpty() ? "accepted=" + (r.getAccepted() ? "yes" : "no")
        : "decision=" + r.getDecision() + (r.getDecidedBy().isEmpty() ? "" : " by=" + r.getDecidedBy());
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
        + " " + decision(e) + (e.getSimulation() ? " SIMULATION" : "");
  }

  /** Exit code of a --once run: 0 accepted, 1 held or rejected (a gating metric regressed), 3 not completed. */
  static int exitCode(NightlyRun e) {
    if (!e.getState().equals("completed")) {
      return ExitCodes.FAILED;
    }
    return e.getAccepted() ? ExitCodes.OK : ExitCodes.GATE;
  }
}
