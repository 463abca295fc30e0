package dev.abfleet.cli.sim;

import java.nio.file.Path;

/**
 * What {@code abfleet bench scheduler} runs.
 *
 * @param workers simulated hosts
 * @param experiments experiments submitted at once
 * @param pairs pairs per experiment
 * @param timeScale real seconds per simulated second
 * @param seed seeds the sim model and, offset per experiment, each experiment's pair order
 * @param simModel YAML model; null = the built-in one
 * @param iterations measured iterations per metric per boot
 * @param iterationMs simulated length of one iteration
 * @param h2 true = the controller journals to an H2 file in a temp directory; false = in memory
 * @param timeoutS wall-clock limit for the whole run; experiments still running are cancelled
 * @param mixed false = every experiment {@code nightly} (equal priority); true = priorities
 *     {@code pr}, {@code adhoc}, {@code nightly} in turn, so {@code pr} work preempts the rest
 */
record BenchOptions(int workers, int experiments, int pairs, double timeScale, long seed, Path simModel,
    int iterations, int iterationMs, boolean h2, int timeoutS, boolean mixed) {
  static final java.util.List<String> MIX = java.util.List.of("pr", "adhoc", "nightly");

  /** The priority of the {@code i}-th experiment. */
  String priority(int i) {
    return mixed ? MIX.get(i % MIX.size()) : "nightly";
  }


  /** The command line that reproduces this run. */
  String commandLine() {
    return "abfleet bench scheduler --workers " + workers + " --experiments " + experiments + " --pairs " + pairs
        + " --time-scale " + timeScale + " --seed " + seed + " --iterations " + iterations
        + " --iteration-ms " + iterationMs + " --store " + (h2 ? "h2" : "memory")
        + (simModel == null ? "" : " --sim-model " + simModel) + (mixed ? " --priorities mixed" : "");
  }
}
