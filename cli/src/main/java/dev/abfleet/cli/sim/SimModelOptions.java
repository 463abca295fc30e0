package dev.abfleet.cli.sim;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The sim model options the benchmarks share: which model, how fast, which seed. */
final class SimModelOptions {
  @Option(names = "--time-scale", defaultValue = "0.01", paramLabel = "X",
      description = "Real seconds per simulated second (default: ${DEFAULT-VALUE}).")
  double timeScale;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seeds the model and pair orders (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--sim-model", paramLabel = "FILE", description = "Performance model, YAML (default: built-in).")
  Path simModel;

  /** The model these options name, seeded. */
  SimModel load() {
    return SimModels.load(simModel, timeScale).withSeed(seed);
  }

  /** Rejects an integer option outside [min, max] with the range in the message. */
  static void range(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new Problem(option + " " + value + ": expected " + min + " to " + max);
    }
  }
}
