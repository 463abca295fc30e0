package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.PolicyRanges;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.sim.SimModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code abfleet bench sequential}: where sequential experiments stop, and their A/A error rate. */
@Command(name = "sequential", mixinStandardHelpOptions = true,
    description = {
      "SIMULATION: start an embedded controller and N sim workers in this process, run a batch of",
      "A/B experiments with a large simulated effect and a batch of A/A experiments, all with the",
      "same sequential looks, and print where they stopped and how often an A/A experiment got a",
      "false verdict (improved or regressed on any metric) against the family-wise alpha."
    })
final class SequentialBenchCommand implements Callable<Integer> {
  @Option(names = "--workers", defaultValue = "20", paramLabel = "N", description = "Sim hosts (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--experiments", defaultValue = "100", paramLabel = "N",
      description = "Experiments per batch, A/B and A/A (default: ${DEFAULT-VALUE}).")
  int experiments;

  @Option(names = "--looks", split = ",", defaultValue = "8,16,24", paramLabel = "N",
      description = "Ascending pair counts at which experiments may stop (default: ${DEFAULT-VALUE}).")
  List<Integer> looks;

  @Option(names = "--metric", defaultValue = "metadata_stat", paramLabel = "M",
      description = "Metric the A/B candidate changes (default: ${DEFAULT-VALUE}).")
  String metric;

  @Option(names = "--effect", defaultValue = "0.7", paramLabel = "F",
      description = "The candidate's factor on that metric, e.g. 0.7 = -30%% (default: ${DEFAULT-VALUE}).")
  double effect;

  @Option(names = "--alpha", defaultValue = "0.05", paramLabel = "A", description = "Family-wise level (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--futility", defaultValue = "0.05", paramLabel = "R",
      description = "Futility stop: a metric whose interval rules out a change of R or more stops as no"
          + " change (beta 10%%); 0 = none (default: ${DEFAULT-VALUE}, fleet.yaml's default).")
  double futility;

  @Mixin SimModelOptions sim;

  @Option(names = "--timeout", defaultValue = "900", paramLabel = "SECONDS",
      description = "Cancel what is still running after this long, per batch (default: ${DEFAULT-VALUE}).")
  int timeoutS;

  @Override
  public Integer call() throws IOException, InterruptedException {
    SimModelOptions.range("--workers", workers, 1, 10_000);
    SimModelOptions.range("--experiments", experiments, 1, 10_000);
    for (int i = 0; i < looks.size(); i++) {
      if (looks.get(i) < 2 || (i > 0 && looks.get(i) <= looks.get(i - 1)) || looks.get(i) > 1_000) {
        throw new Problem("--looks " + looks + ": expected ascending pair counts from 2 to 1000, e.g. 8,16,24");
      }
    }
    if (!(effect > 0) || !Double.isFinite(effect)) {
      throw new Problem("--effect " + effect + ": expected a factor > 0, e.g. 0.7 for -30%");
    }
    PolicyRanges.alpha(alpha);
    if (!(futility >= 0 && futility < 0.5)) {
      throw new Problem("--futility " + futility + ": expected a relative change from 0 (no futility stop) to"
          + " below 0.5, e.g. 0.05 for 5%");
    }
    SimModel model = sim.load();
    if (model.metrics().stream().noneMatch(m -> m.name().equals(metric))) {
      throw new Problem("--metric " + metric + ": the sim model has " + String.join(", ",
          model.metrics().stream().map(m -> m.name()).toList()));
    }
    SequentialBench.Options o = new SequentialBench.Options(workers, experiments, List.copyOf(looks), metric,
        effect, alpha, sim.seed, timeoutS, futility);
    Path home = Files.createTempDirectory("abfleet-bench-");
    try {
      SequentialBench.Result r = SequentialBench.run(o, model, home, System.err);
      return SequentialBench.print(o, SimModels.describe(model), model.timeScale(), r, System.out)
          ? ExitCodes.OK : ExitCodes.FAILED;
    } finally {
      CacheFiles.deleteTree(home);
    }
  }
}
