package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code abfleet bench}: benchmarks of abfleet itself: on simulated hosts, its event store, loopback upload. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks of abfleet itself: scheduler and sequential on SIMULATED hosts (hypervisor sim),"
        + " event store recovery, artifact upload on loopback, a client flooding the controller, and listing"
        + " many experiments.",
    subcommands = {SchedulerBenchCommand.class, SequentialBenchCommand.class, RecoveryBenchCommand.class,
        FleetBenchCommand.class, FleetStateBenchCommand.class,
        dev.abfleet.cli.upload.UploadBenchCommand.class, dev.abfleet.cli.flood.FloodBenchCommand.class,
        dev.abfleet.cli.experiments.ListBenchCommand.class, FillBenchCommand.class,
        dev.abfleet.cli.experiments.ReadFloodBenchCommand.class})
public final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.BAD_INPUT;
  }
}
