package dev.abfleet.cli.e2e;

/**
 * The end-to-end test classes whose fleets are simulated hosts (controllers, clusters and sim
 * workers as processes: little CPU, much waiting on heartbeats, failovers and restarts) run on a
 * second thread beside the classes that boot real kernels or build them, which run one at a time
 * (cli/pom.xml configures JUnit's parallel execution). They hold {@link #LOCK}, so that only one
 * of them runs at a time and its test methods run in order.
 */
final class SimFleets {
  /** The resource the simulated-fleet classes share. */
  static final String LOCK = "abfleet-e2e-sim-fleet";

  private SimFleets() {}
}
