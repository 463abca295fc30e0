package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.worker.WorkerSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet nightly}: runs fleet.yaml's schedules against a controller. */
@Command(
    name = "nightly",
    mixinStandardHelpOptions = true,
    description = {
      "Run the schedules of fleet.yaml at their cron times (local time zone): resolve the candidate",
      "and baseline kernels, submit an experiment (priority nightly) to the controller, wait for",
      "its verdict and append it to $ABFLEET_HOME/history/<schedule>.jsonl.",
      "With --once NAME, run that schedule now, once, and exit: 0 accepted, 1 a gating metric",
      "regressed, 3 the experiment did not complete.",
      "A schedule on hosts.hypervisor sim gives SIMULATION results, labelled so on every line."
    })
public final class NightlyCommand implements Callable<Integer> {
  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;


  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--once", paramLabel = "NAME", description = "Run this schedule once, now, and exit.")
  String once;

  @Override
  public Integer call() {
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    Path configDir = config == null ? Path.of("").toAbsolutePath()
        : config.toAbsolutePath().normalize().getParent();
    if (cfg.schedules().isEmpty()) {
      throw new Problem((config == null ? "the built-in fleet.yaml" : config.toString())
          + " has no schedules; add a schedules: list (see the example in fleet.yaml) and pass it with --config");
    }
    FleetConfig.Schedule only = once == null ? null : cfg.schedule(once);
    try (ExperimentClient client = new ExperimentClient(dev.abfleet.cli.ControllerAddress.check(controller, auth))) {
      NightlyRun run = new NightlyRun(cfg, configDir, WorkerSettings.defaultHome(),
          new GrpcExperimentRunner(client, System.err), System.err);
      cfg.schedules().stream().filter(NightlyCommand::simulated).filter(s -> only == null || s.equals(only))
          .forEach(s -> System.err.println("abfleet: nightly: " + s.name() + ": " + SIMULATION));
      if (only != null) {
        HistoryEntry e = run.run(only, Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
        System.out.println(summary(e, only));
        return NightlyRun.exitCode(e);
      }
      Clock clock = Clock.systemDefaultZone();
      System.err.println("abfleet: nightly: " + cfg.schedules().size() + " schedule(s): "
          + String.join(", ", cfg.schedules().stream().map(s -> s.name() + " (" + s.cron() + ")").toList()));
      new NightlyLoop(cfg.schedules(), clock, t -> sleepUntil(clock, t), (s, due) -> {
        try {
          System.out.println(summary(run.run(s, due), s));
        } catch (RuntimeException e) {
          // One failed night must not stop the others; the history shows the gap.
          System.err.println("abfleet: " + s.name() + " due " + due + " failed: " + e.getMessage());
        }
      }).run(Long.MAX_VALUE);
      return ExitCodes.OK;
    }
  }

  /** Said of every schedule on sim hosts: no result of sim is a measurement. */
  static final String SIMULATION = "SIMULATION: runs on sim hosts; its verdicts come from the sim performance"
      + " model, no kernel is booted";

  /** One line per run; a run on sim hosts ends with " SIMULATION". */
  static String summary(HistoryEntry e, FleetConfig.Schedule s) {
    return e.date() + " " + e.schedule() + " " + e.experiment() + " " + e.state()
        + (e.overall().isEmpty() ? "" : " overall=" + e.overall())
        + " accepted=" + (e.accepted() ? "yes" : "no") + (simulated(s) ? " SIMULATION" : "");
  }

  static boolean simulated(FleetConfig.Schedule s) {
    return s.hosts().hypervisor().equals("sim");
  }

  private static void sleepUntil(Clock clock, Instant t) throws InterruptedException {
    while (true) {
      Duration left = Duration.between(clock.instant(), t);
      if (left.isNegative() || left.isZero()) {
        return;
      }
      // Wake at least once a minute: a suspended laptop or a clock step is noticed soon.
      Thread.sleep(Math.min(left.toMillis() + 1, 60_000));
    }
  }
}
