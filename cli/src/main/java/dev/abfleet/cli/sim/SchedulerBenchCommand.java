package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.sim.SimModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code abfleet bench scheduler}: how close the controller gets to the ideal makespan. */
@Command(name = "scheduler", mixinStandardHelpOptions = true,
    description = {
      "SIMULATION: start an embedded controller and N sim workers in this process (real gRPC over",
      "loopback), submit a batch of equal-priority experiments on hypervisor sim, wait for all,",
      "and print the makespan against its lower bound (total boot time / hosts) plus checks."
    })
final class SchedulerBenchCommand implements Callable<Integer> {
  @Option(names = "--workers", defaultValue = "200", paramLabel = "N", description = "Sim hosts (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--experiments", defaultValue = "50", paramLabel = "N", description = "Experiments (default: ${DEFAULT-VALUE}).")
  int experiments;

  @Option(names = "--pairs", defaultValue = "8", paramLabel = "N", description = "Pairs per experiment (default: ${DEFAULT-VALUE}).")
  int pairs;

  @Mixin SimModelOptions sim;

  @Option(names = "--iterations", defaultValue = "5", paramLabel = "N",
      description = "Measured iterations per metric per boot (default: ${DEFAULT-VALUE}).")
  int iterations;

  @Option(names = "--iteration-ms", defaultValue = "200", paramLabel = "MS",
      description = "Simulated length of one iteration (default: ${DEFAULT-VALUE}).")
  int iterationMs;

  @Option(names = "--store", defaultValue = "memory", paramLabel = "KIND",
      description = "Controller event journal: memory or h2 (a file in a temp dir; default: ${DEFAULT-VALUE}).")
  String store;

  @Option(names = "--priorities", defaultValue = "equal", paramLabel = "KIND",
      description = "equal (every experiment nightly; the makespan target applies) or mixed (pr, adhoc,"
          + " nightly in turn; pr work preempts the rest) (default: ${DEFAULT-VALUE}).")
  String priorities;

  @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
      description = "Cancel what is still running after this long (default: ${DEFAULT-VALUE}).")
  int timeoutS;

  @Override
  public Integer call() throws IOException, InterruptedException {
    SimModelOptions.range("--workers", workers, 1, 10_000);
    SimModelOptions.range("--experiments", experiments, 1, 1_000);
    SimModelOptions.range("--pairs", pairs, 1, 1_000);
    SimModelOptions.range("--iterations", iterations, 1, 100_000);
    SimModelOptions.range("--iteration-ms", iterationMs, 1, 600_000);
    SimModelOptions.range("--timeout", timeoutS, 1, 86_400);
    if (!priorities.equals("equal") && !priorities.equals("mixed")) {
      throw new Problem("--priorities '" + priorities + "': expected equal or mixed");
    }
    if (!store.equals("memory") && !store.equals("h2")) {
      throw new Problem("--store '" + store + "': expected memory or h2");
    }
    SimModel model = sim.load();
    BenchOptions o = new BenchOptions(workers, experiments, pairs, model.timeScale(), sim.seed, sim.simModel, iterations,
        iterationMs, store.equals("h2"), timeoutS, priorities.equals("mixed"));
    Path home = Files.createTempDirectory("abfleet-bench-");
    try {
      System.err.println("abfleet bench: SIMULATION: starting an embedded controller and " + workers + " sim workers");
      SchedulerBench.Result result = SchedulerBench.run(o, model, home, System.err);
      boolean completed = BenchReport.print(o, SimModels.describe(model), result, System.out);
      return completed ? ExitCodes.OK : ExitCodes.FAILED;
    } finally {
      CacheFiles.deleteTree(home);
    }
  }
}
