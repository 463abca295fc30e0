package dev.abfleet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code abfleet} command. Exit codes: 0 done; 1 a gating metric regressed (with --gate);
 * 2 bad input (one line naming the problem and the fix); 3 the experiment could not finish.
 */
@Command(
    name = "abfleet",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "A/B verdicts for kernel variants from back-to-back isolated VM boots.",
    subcommands = {
      AbCommand.class,
      dev.abfleet.cli.analyze.AnalyzeCommand.class, dev.abfleet.cli.calibrate.CalibrateCommand.class,
      DemoCommand.class,
      ControllerCommand.class,
      WorkerCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main {
  public static final int EXIT_OK = 0;
  public static final int EXIT_GATE = 1;
  public static final int EXIT_BAD_INPUT = 2;
  public static final int EXIT_FAILED = 3;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (tests call this). */
  public static int run(String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setExecutionExceptionHandler((ex, line, parsed) -> {
      if (ex instanceof Problem) {
        line.getErr().println("abfleet: " + ex.getMessage());
        return EXIT_BAD_INPUT;
      }
      throw ex;
    });
    cl.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println("abfleet: " + ex.getMessage()
          + " (see: abfleet " + ex.getCommandLine().getCommandName() + " --help)");
      return EXIT_BAD_INPUT;
    });
    return cl.execute(args);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"abfleet " + (v == null ? "dev" : v)};
    }
  }
}
