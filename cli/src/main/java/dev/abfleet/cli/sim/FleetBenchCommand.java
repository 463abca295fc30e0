package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench fleet}: a controller process and N sim workers in another, measured. */
@Command(name = "fleet", mixinStandardHelpOptions = true,
    description = {
      "SIMULATION: start `abfleet controller` (H2 in a temp dir, rate limits raised) and",
      "`abfleet sim-fleet` in separate processes, time until all N workers are connected,",
      "measure the controller process (CPU at steady state, RSS) and ListHosts, then optionally",
      "run experiments and print the assignment gaps and the makespan against a list schedule."
    })
final class FleetBenchCommand implements Callable<Integer> {
  @Option(names = "--workers", defaultValue = "100", paramLabel = "N", description = "Sim hosts, 1 to 10000 (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--experiments", defaultValue = "0", paramLabel = "E",
      description = "Experiments submitted at once after the steady state; 0 = none (default: ${DEFAULT-VALUE}).")
  int experiments;

  @Option(names = "--pairs", defaultValue = "8", paramLabel = "P", description = "Pairs per experiment (default: ${DEFAULT-VALUE}).")
  int pairs;

  @Option(names = "--heartbeat-ms", defaultValue = "1000", paramLabel = "MS",
      description = "controller.heartbeat_interval_ms (default: ${DEFAULT-VALUE}, fleet.yaml's).")
  int heartbeatMs;

  @Option(names = "--steady-s", defaultValue = "20", paramLabel = "S",
      description = "Seconds of steady state (all connected, nothing to run) the controller's CPU is averaged over (default: ${DEFAULT-VALUE}).")
  int steadyS;

  // Real time by default: at 0.01 (bench scheduler's default) 1,000 sim hosts finish a boot
  // every few ms each, a report flood no fleet of real VMs sends, and the figures measure that.
  @Option(names = "--time-scale", defaultValue = "1.0", paramLabel = "X",
      description = "Real seconds per simulated second (default: ${DEFAULT-VALUE}, real time).")
  double timeScale;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
      description = "Seeds the experiments' pair orders (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--iterations", defaultValue = "5", paramLabel = "N",
      description = "Measured iterations per metric per boot (default: ${DEFAULT-VALUE}).")
  int iterations;

  @Option(names = "--iteration-ms", defaultValue = "200", paramLabel = "MS",
      description = "Simulated length of one iteration (default: ${DEFAULT-VALUE}).")
  int iterationMs;

  @Option(names = "--timeout", defaultValue = "900", paramLabel = "SECONDS",
      description = "Give up connecting, or cancel the experiments, after this long (default: ${DEFAULT-VALUE}).")
  int timeoutS;

  @Option(names = "--keep", description = "Keep the temp directory (both processes' logs, the store) and print its path.")
  boolean keep;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text or json (one object) (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() throws Exception {
    SimModelOptions.range("--workers", workers, 1, 10_000);
    SimModelOptions.range("--experiments", experiments, 0, 1_000);
    SimModelOptions.range("--pairs", pairs, 1, 1_000);
    SimModelOptions.range("--heartbeat-ms", heartbeatMs, 100, 60_000);
    SimModelOptions.range("--steady-s", steadyS, 1, 3_600);
    SimModelOptions.range("--iterations", iterations, 1, 100_000);
    SimModelOptions.range("--iteration-ms", iterationMs, 1, 600_000);
    SimModelOptions.range("--timeout", timeoutS, 10, 86_400);
    if (!format.equals("text") && !format.equals("json")) {
      throw new Problem("--format '" + format + "': expected text or json");
    }
    if (!(timeScale > 0) || timeScale > 100) {
      throw new Problem("--time-scale " + timeScale + ": expected more than 0 and at most 100");
    }
    FleetBench.Options o = new FleetBench.Options(workers, experiments, pairs, heartbeatMs, steadyS,
        timeScale, seed, iterations, iterationMs, timeoutS, keep);
    FleetFigures f = FleetBench.run(o, System.err);
    if (format.equals("json")) {
      System.out.println(f.json());
    } else {
      f.print(System.out);
    }
    return f.experimentsCompleted() == experiments ? ExitCodes.OK : ExitCodes.FAILED;
  }
}
