package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.sim.SimDriver;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code abfleet experiments logs ID [--boot N]}: the console logs the workers uploaded for an
 * experiment's boots, fetched from the controller's artifact store.
 */
@Command(name = "logs", mixinStandardHelpOptions = true,
    description = {"Print the console logs of an experiment's boots, as the workers uploaded them to the controller",
        "(the last 4 MiB of each; a cut log starts with a line saying so). A boot of a sim host has none (no VM",
        "ran): it is named as such, with the simulated console's last lines when the boot failed, and exits 0."})
public final class ExperimentLogsCommand implements Callable<Integer> {
  /** Says, where a sim boot's log would be, that there is none by design. */
  static final String SIMULATION = "SIMULATION: a sim boot runs no VM";

  @Parameters(index = "0", paramLabel = "ID", description = "Experiment id.")
  String id;

  @Option(names = "--boot", paramLabel = "N",
      description = "Only boot N: its position, from 1, in the order the controller lists the experiment's boots."
          + " Default: every boot, each under a header line.")
  Integer boot;

  @Mixin
  ControllerOption controller;

  private final PrintStream out;

  public ExperimentLogsCommand() {
    this(System.out);
  }

  ExperimentLogsCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    ExperimentIdArg.checked(id);
    return controller.call(ControllerOption.ONE_SHOT_LIMIT, this::printLogs);
  }

  private Integer printLogs(ExperimentClient client) {
    Experiment e = client.get(id);
    List<Boot> boots = e.getBootsList();
    if (boot != null) {
      if (boot < 1 || boot > boots.size()) {
        throw new Problem("--boot " + boot + ": experiment " + id + " has " + (boots.isEmpty() ? "no boots yet"
            : boots.size() + " boot(s); pass 1 to " + boots.size()));
      }
      Boot b = boots.get(boot - 1);
      if (b.getConsoleLogSha256().isEmpty() && simulated(b)) {
        out.println("boot " + boot + " of " + id + " ran on a sim host (" + b.getHostId() + "): there is no console"
            + " log (" + SIMULATION + ")");
        printTail(b);
        return ExitCodes.OK;
      }
      if (b.getConsoleLogSha256().isEmpty()) {
        throw new Problem("boot " + boot + " of experiment " + id + " (run " + b.getRunId() + ") has no console"
            + " log on the controller: its worker uploaded none (it ran before logs were uploaded, never booted,"
            + " or could not reach the controller's store); look in the worker's runs/ directory");
      }
      print(client, b);
      return ExitCodes.OK;
    }
    if (boots.isEmpty()) {
      throw new Problem("experiment " + id + " has no boots yet; try again once a boot finished");
    }
    for (int i = 0; i < boots.size(); i++) {
      Boot b = boots.get(i);
      out.println("=== boot " + (i + 1) + ": run " + b.getRunId() + ", arm " + b.getArm() + ", host " + b.getHostId()
          + ", pair " + b.getPairIndex() + ", " + b.getStatus() + " ===");
      if (b.getConsoleLogSha256().isEmpty() && simulated(b)) {
        out.println("(sim host: there is no console log, " + SIMULATION + ")");
        printTail(b);
      } else if (b.getConsoleLogSha256().isEmpty()) {
        out.println("(no console log on the controller for this boot)");
      } else {
        print(client, b);
      }
    }
    return ExitCodes.OK;
  }

  /**
   * A boot of a sim host ({@code abfleet sim-fleet}): no VM ran, so its worker uploads no console
   * log; that is the expected state of every sim boot, not a fault, hence exit 0.
   */
  static boolean simulated(Boot b) {
    return b.getTelemetry().getHypervisor().equals(SimDriver.NAME);
  }

  /** A failed sim boot's console tail (the worker reports one for every failed boot), e.g. its injected panic. */
  private void printTail(Boot b) {
    if (!b.getConsoleTail().isBlank()) {
      out.println("its simulated console ended with:");
      out.println(b.getConsoleTail().stripTrailing());
    }
    out.flush();
  }

  private void print(ExperimentClient client, Boot b) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile("abfleet-console-", ".log");
      client.artifacts().fetchInto(b.getConsoleLogSha256(), tmp);
      String actual = ArtifactCache.sha256(tmp);
      if (!actual.equals(b.getConsoleLogSha256())) {
        throw new IOException("the controller sent bytes hashing to " + actual + ", not " + b.getConsoleLogSha256()
            + "; the store is damaged: check the controller's disk");
      }
      Files.copy(tmp, out);
      out.flush();
    } catch (IOException e) {
      throw new Problem("console log of run " + b.getRunId() + ": " + e.getMessage());
    } finally {
      if (tmp != null) {
        tmp.toFile().delete();
      }
    }
  }
}
