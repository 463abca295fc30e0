package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import io.grpc.StatusRuntimeException;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code abfleet} command. Exit codes: 0 done; 1 a gating metric regressed (with --gate);
 * 2 bad input (one line naming the problem and the fix); 3 the experiment could not finish, or
 * the controller stayed unreachable (never 1: an infrastructure failure is not a verdict); 4 the
 * gate is inconclusive (with --gate).
 */
@Command(
    name = "abfleet",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "A/B verdicts for kernel variants from back-to-back isolated VM boots.",
    subcommands = {
      AbCommand.class, SoakCommand.class, dev.abfleet.cli.build.BuildCommand.class, dev.abfleet.cli.nightly.NightlyCommand.class, dev.abfleet.cli.history.HistoryCommand.class, dev.abfleet.cli.bisect.BisectCommand.class,
      dev.abfleet.cli.analyze.AnalyzeCommand.class, dev.abfleet.cli.calibrate.CalibrateCommand.class,
      dev.abfleet.cli.plan.PlanCommand.class,
      DemoCommand.class,
      ControllerCommand.class,
      dev.abfleet.cli.store.StoreCommand.class,
      WorkerCommand.class,
      dev.abfleet.cli.sim.SimFleetCommand.class,
      dev.abfleet.cli.sim.SimKernelsCommand.class,
      dev.abfleet.cli.sim.BenchCommand.class,
      HostsCommand.class,
      dev.abfleet.cli.certs.CertsCommand.class,
      dev.abfleet.cli.tokens.TokensCommand.class,
      dev.abfleet.cli.experiments.ExperimentsCommand.class,
      dev.abfleet.cli.experiments.ReportCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main {
  public static void main(String[] args) {
    if (System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism") == null) {
      // With fewer than 3 CPUs the common pool has one thread and CompletableFuture runs every
      // async step on a new thread; ask replies in the controller are such steps.
      System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism",
          String.valueOf(Math.max(4, Runtime.getRuntime().availableProcessors())));
    }
    if (args.length > 0 && (args[0].equals("controller") || args[0].equals("worker"))
        && System.getProperty("abfleet.log.level") == null) {
      // Long-running processes log what they do; interactive commands keep stderr for progress.
      System.setProperty("abfleet.log.level", "INFO");
    }
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.err, true), args);
  }

  /** Runs the command line with picocli's error output going to {@code err} (tests call this). */
  public static int run(PrintWriter err, String... args) {
    ControllerAddress.resetSecurity();
    Reconnect.forgetReached();
    CommandLine cl = new CommandLine(new Main());
    CommandList.install(cl);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((ex, line, parsed) -> {
      if (ex instanceof Problem) {
        line.getErr().println("abfleet: " + ex.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      // Whatever else goes wrong is not a verdict: never the gate's exit code.
      if (ex instanceof StatusRuntimeException denied
          && (denied.getStatus().getCode() == io.grpc.Status.Code.UNAUTHENTICATED
              || denied.getStatus().getCode() == io.grpc.Status.Code.PERMISSION_DENIED)) {
        // The user's to fix (a token, a role, a certificate): one line, like bad input.
        line.getErr().println("abfleet: " + denied.getStatus().getDescription());
        return ExitCodes.BAD_INPUT;
      }
      if (ex instanceof Reconnect.ControllerUnreachable) {
        line.getErr().println("abfleet: " + ex.getMessage());
      } else if (ex instanceof StatusRuntimeException sre && Reconnect.refused(sre)) {
        // A command without retries (hosts, tokens) says it as those with retries do.
        line.getErr().println("abfleet: " + Reconnect.refusedAt(refusedAddress(sre), sre).getMessage());
      } else if (ex instanceof StatusRuntimeException sre) {
        line.getErr().println("abfleet: controller call failed: " + sre.getStatus().getCode()
            + (sre.getStatus().getDescription() == null ? ""
                : ": " + sre.getStatus().getDescription()));
      } else {
        line.getErr().println("abfleet: internal error (please report it): " + ex);
        ex.printStackTrace(new PrintWriter(line.getErr(), true));
      }
      return ExitCodes.FAILED;
    });
    cl.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println("abfleet: " + UsageErrors.message(ex));
      return ExitCodes.BAD_INPUT;
    });
    try {
      return cl.execute(args);
    } finally {
      ControllerAddress.resetSecurity();
      Reconnect.forgetReached();
    }
  }

  /**
   * HOST:PORT of a refused connection, from netty's message ("... Connection refused:
   * localhost/127.0.0.1:7070" or ".../127.0.0.1:7070"); "the given address" when it has none.
   */
  static String refusedAddress(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      int at = m == null ? -1 : m.lastIndexOf("refused: ");
      if (at >= 0) {
        String address = m.substring(at + "refused: ".length()).strip();
        int slash = address.indexOf('/');
        int colon = address.lastIndexOf(':');
        if (slash >= 0 && colon > slash) {
          String host = slash == 0 ? address.substring(1, colon) : address.substring(0, slash);
          return host + address.substring(colon);
        }
        return address;
      }
    }
    return "the given address";
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"abfleet " + (v == null ? "dev" : v)};
    }
  }
}
