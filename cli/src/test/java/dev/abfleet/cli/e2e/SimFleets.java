package dev.abfleet.cli.e2e;

/**
 * The end-to-end test classes whose fleets are simulated hosts (controllers, clusters and sim
 * workers as processes: little CPU, much waiting on heartbeats, failovers and restarts) run on a
 * second thread beside the classes that boot real kernels or build them, which run one at a time
 * (cli/pom.xml configures JUnit's parallel execution). They hold {@link #LOCK}, so that only one
 * of them runs at a time and its test methods run in order. So do the classes that need both of
 * this machine's CPUs, never to run beside one of them: guests with 2 vCPUs (a vCPU thread
 * descheduled while it holds a guest lock stalls the other; a 2-vCPU boot beside a simulated
 * cluster ran into its 180 s timeout) and kernel builds ({@code make -j2}).
 */
final class SimFleets {
  /** The resource the simulated-fleet classes share. */
  static final String LOCK = "abfleet-e2e-sim-fleet";

  private SimFleets() {}
}
