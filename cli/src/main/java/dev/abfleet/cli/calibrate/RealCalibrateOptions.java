package dev.abfleet.cli.calibrate;

import dev.abfleet.cli.AaExperiments;
import dev.abfleet.cli.ClientAuthOptions;
import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.config.Problem;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.cli.noise.ControllerNoise;
import dev.abfleet.cli.noise.NoiseQuotes;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.NoiseSection;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.DebianKernels;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimDriver;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The options and the run of {@code abfleet calibrate --real}: K A/A experiments of one kernel on
 * real hosts, their noise merged into {@code $ABFLEET_HOME/noise} per host class, the table printed.
 */
final class RealCalibrateOptions {
  /** The kernel when none is given: the one {@code abfleet demo} downloads. */
  static final String DEFAULT_PACKAGE = "linux-image-6.1.0-50-cloud-amd64";
  static final int DEFAULT_EXPERIMENTS = 3;
  static final int DEFAULT_PAIRS = 4;

  @Option(names = "--kernel", paramLabel = "PATH",
      description = "With --real: the kernel booted as both arms (default: Debian's " + DEFAULT_PACKAGE
          + ", downloaded like abfleet demo does; with --hypervisor sim a placeholder written under the home).")
  Path kernel;

  @Option(names = "--benchmark", paramLabel = "NAME",
      description = "With --real: benchmark from fleet.yaml (default: default_benchmark).")
  String benchmark;

  @Option(names = "--config", paramLabel = "FILE", description = "With --real: fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]",
      description = "With --real: run the A/A experiments on this controller's workers instead of an embedded"
          + " fleet, and merge the noise into the controller's records (an operator token), which every client"
          + " of it quotes; a copy stays in $ABFLEET_HOME/noise. The kernel must be readable at the same"
          + " absolute path on the workers.")
  String controller;

  @Option(names = "--hypervisor", paramLabel = "NAME",
      description = "With --real: the hosts' hypervisor, qemu (default), vz or sim. sim calibrates the SIMULATED"
          + " hosts of a --controller (abfleet sim-fleet): the noise recorded is the sim performance model's, for"
          + " capacity planning with abfleet plan, and is labelled SIMULATION wherever it is shown.")
  String hypervisor;

  @picocli.CommandLine.Mixin ClientAuthOptions auth;

  /** The first of these options given, e.g. "--kernel"; null when none is. */
  String firstGiven() {
    return kernel != null ? "--kernel" : benchmark != null ? "--benchmark" : config != null ? "--config"
        : controller != null ? "--controller" : hypervisor != null ? "--hypervisor" : null;
  }

  private boolean simulated() {
    return SimDriver.NAME.equals(hypervisor);
  }

  /** Runs {@code experiments} A/A experiments of {@code pairs} pairs each and prints the stored noise. */
  int run(int experiments, int pairs, String format, PrintStream out, PrintStream err, Clock clock) {
    if (experiments < 1 || experiments > 1000) {
      throw new Problem("--experiments " + experiments + ": with --real expected 1 to 1000 A/A experiments");
    }
    if (pairs < 2 || pairs > 10_000) {
      throw new Problem("--pairs " + pairs + ": with --real expected one pair count from 2 to 10000 (the paired"
          + " spread needs two pairs)");
    }
    String fmt = format.toLowerCase(Locale.ROOT);
    if (!List.of("text", "markdown", "md", "json").contains(fmt)) {
      throw new Problem("--format '" + format + "': expected text, markdown or json");
    }
    if (hypervisor != null) {
      dev.abfleet.config.HostChoices.hypervisors(List.of(hypervisor)).ifPresent(issue -> {
        throw new Problem("--hypervisor " + hypervisor + ": " + issue.message() + "; calibrate one hypervisor per run");
      });
    }
    if (simulated() && controller == null) {
      throw new Problem("--hypervisor sim needs --controller HOST:PORT: sim hosts are the workers of a controller"
          + " (start them with abfleet sim-fleet --workers N --controller HOST:PORT), the embedded fleet boots"
          + " real kernels");
    }
    String target = controller == null ? null : ControllerAddress.check(controller, auth);
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    NoiseStore store = NoiseStore.inHome(WorkerSettings.defaultHome());
    store.loadAll(); // an unreadable record stops the run before any boot, not after
    Path k = kernel != null ? kernel : simulated() ? placeholderKernel() : defaultKernel(err);
    if (simulated()) {
      err.println("abfleet calibrate: " + SIMULATION);
    }
    err.println("abfleet calibrate: " + experiments + " A/A experiment(s) of " + pairs + " pairs, " + k
        + " as both arms (" + AaExperiments.BASELINE + ", " + AaExperiments.TWIN + ")");
    List<Experiment> done = AaExperiments.run(k, cfg, benchmark, pairs, experiments, target,
        hypervisor == null ? "qemu" : hypervisor, err);
    long completed = done.stream().filter(e -> e.getState().equals("completed")).count();
    RealCalibration.Result r;
    if (target == null) {
      r = RealCalibration.record(done, store, LocalDate.now(clock));
    } else {
      // The controller's journal holds the records every client quotes; the home keeps a copy.
      ManagedChannel channel = ControllerAddress.channel(target);
      try {
        r = RealCalibration.record(done, store, m -> ControllerNoise.merge(channel, m), LocalDate.now(clock));
      } catch (StatusRuntimeException e) {
        throw new Problem("the controller at " + target + " did not record the noise (" + e.getStatus().getCode()
            + ": " + e.getStatus().getDescription() + "); it is kept in " + store.dir() + ". Merging needs an"
            + " operator token (--token-file or ABFLEET_TOKEN) and a controller that serves NoiseService");
      } finally {
        ControllerAddress.close(channel);
      }
    }
    if (r.stored().isEmpty()) {
      err.println("abfleet calibrate: no A/A experiment completed a pair (" + completed + " of " + experiments
          + " completed); nothing recorded");
      return 3;
    }
    out.print(RealCalibration.render(r.stored(), fmt, cfg.policy().noiseThreshold(), cfg.policy().alpha()));
    if (!fmt.equals("json") && r.stored().stream().anyMatch(NoiseRecord::simulated)) {
      out.printf("%n%s%n", RealCalibration.SIMULATED_CLASSES);
    }
    if (!fmt.equals("json")) {
      out.printf(Locale.ROOT, "%nthis run: %d of %d A/A experiments completed, %d pairs each; records in %s"
          + " (merged with earlier runs); pairs for %s (twice the noise threshold) at 80%% power, alpha %s over the"
          + " gating metrics%n", completed, experiments, pairs,
          target == null ? store.dir() : "the controller at " + target + " (a copy in " + store.dir() + ")",
          NoiseSection.pct(NoiseQuotes.mdeFor(cfg.policy().noiseThreshold())), cfg.policy().alpha());
    }
    out.flush();
    return completed == experiments ? 0 : 3;
  }

  /** Printed (stderr) before a calibration of sim hosts. */
  static final String SIMULATION = "SIMULATION: --hypervisor sim: the A/A experiments run on sim hosts; the noise"
      + " recorded is the sim performance model's, not a real host's";

  /** A sim placeholder kernel under the home (sim hosts boot nothing; any readable file does). */
  private static Path placeholderKernel() {
    Path dir = WorkerSettings.defaultHome().resolve("sim");
    try {
      return Path.of(SimArtifacts.kernel(dir, "calibrate").getUri());
    } catch (IOException e) {
      throw new Problem("cannot write a sim placeholder kernel under " + dir + ": " + e.getMessage()
          + "; check that ABFLEET_HOME is writable, or pass --kernel FILE (abfleet sim-kernels writes them)");
    }
  }

  private static Path defaultKernel(PrintStream err) {
    Path home = WorkerSettings.defaultHome();
    err.println("abfleet calibrate: fetching " + DEFAULT_PACKAGE + " (apt-get download) into " + home.resolve("kernels"));
    try {
      return new DebianKernels(new ProcessRunner()).fetch(DEFAULT_PACKAGE, home);
    } catch (IOException e) {
      throw new Problem(e.getMessage() + "; or pass --kernel PATH");
    }
  }
}
