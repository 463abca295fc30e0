package dev.abfleet.cli.sim;

import dev.abfleet.bench.sim.FleetStateBench;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.artifact.CacheFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench fleet-state}: what one change of the scheduler's state costs at fleet size. */
@Command(name = "fleet-state", mixinStandardHelpOptions = true,
    description = {
      "Connect, lease, release and disconnect N hosts one by one on the scheduler's state types",
      "(no actor, no journal) and print the time per change; then register N hosts one by one",
      "with the real scheduler actor (journal in an H2 file) until ListHosts shows them all."
    })
final class FleetStateBenchCommand implements Callable<Integer> {
  @Option(names = "--hosts", defaultValue = "10000", paramLabel = "N",
      description = "Hosts (default: ${DEFAULT-VALUE}).")
  int hosts;

  @Override
  public Integer call() throws Exception {
    SimModelOptions.range("--hosts", hosts, 1, 1_000_000);
    Path dir = Files.createTempDirectory("abfleet-fleet-state-");
    try {
      ControllerSettings settings = ControllerSettings.defaults()
          .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")));
      FleetStateBench.Figures f = FleetStateBench.run(settings, hosts);
      System.out.printf(Locale.ROOT, "scheduler state at %d hosts (time per change, one host at a time)%n", f.hosts());
      System.out.printf(Locale.ROOT, "connect     %10.1f us%n", f.connectNs() / 1e3);
      System.out.printf(Locale.ROOT, "lease       %10.1f us%n", f.leaseNs() / 1e3);
      System.out.printf(Locale.ROOT, "release     %10.1f us%n", f.releaseNs() / 1e3);
      System.out.printf(Locale.ROOT, "disconnect  %10.1f us%n", f.disconnectNs() / 1e3);
      System.out.printf(Locale.ROOT, "scheduler actor: %d RegisterHost one by one until ListHosts shows all: %.0f ms%n",
          f.hosts(), f.registerMs());
      return ExitCodes.OK;
    } finally {
      CacheFiles.deleteTree(dir);
    }
  }
}
