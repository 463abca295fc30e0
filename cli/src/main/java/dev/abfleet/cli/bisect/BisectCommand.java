package dev.abfleet.cli.bisect;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Reconnect;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectSummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet bisect}: the first kernel of an ordered list that regressed a metric. */
@Command(
    name = "bisect",
    mixinStandardHelpOptions = true,
    description = {
      "Find the first regressing kernel in an ordered list whose first kernel is good and whose last",
      "regressed on METRIC. The endpoints are measured first (first kernel against the last: the",
      "regression R to find; none shown = nothing to bisect, the bisect fails saying so). Then binary",
      "search; each probe is ONE A/B experiment of the first kernel against the probed one, with the",
      "--looks as its sequential design (alpha spent over the looks): good when its interval rules out",
      "--fraction x R (its worse end is better than that), bad when it rules out no change, re-measured",
      "at the next look while neither; a probe still undecided at the last look ends the search with",
      "the open range reported, not a guess.",
      "The controller runs the bisect as a job of its own: it survives a controller restart, and",
      "interrupting this command leaves it running (--attach ID follows it again, --cancel ID stops it).",
      "With --hypervisor sim the results are SIMULATION (sim placeholder kernels carry their effect).",
      "--git REPO --good REF --bad REF walks a commit range instead (first parent), building each probe's",
      "kernel on demand (cached by build key; --patch, --config BASE, --config-fragment, --arch as in abfleet",
      "build; --fleet-config for fleet.yaml). The endpoints are built and measured first; each probe is an A/B",
      "of the good endpoint's kernel against it: bad when its interval rules out no change on the worse side,",
      "good when it rules out half the endpoints' regression, else ambiguous (the search stops). Without",
      "--controller the A/Bs run on an embedded fleet here.",
      "Exit codes: 0 found, 1 ambiguous (an inconclusive probe), 2 bad input, 3 an experiment failed",
      "(or the bisect was cancelled)."
    })
public final class BisectCommand implements Callable<Integer> {
  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas (required, except with --git).")
  String controller;

  @Option(names = "--git", paramLabel = "REPO", description = "A kernel git repository: bisect its commits, building each probe.")
  Path git;

  @Option(names = "--good", paramLabel = "REF", description = "With --git: the last known good commit.")
  String good;

  @Option(names = "--bad", paramLabel = "REF", description = "With --git: the first known bad commit.")
  String bad;

  @Option(names = "--patch", paramLabel = "FILE", description = "With --git: a patch applied on every commit (repeatable).")
  List<Path> patches = new java.util.ArrayList<>();

  @Option(names = "--config-fragment", paramLabel = "FILE|LINE", description = "With --git: a config fragment or CONFIG_X=y line (repeatable).")
  List<String> fragments = new java.util.ArrayList<>();

  @Option(names = "--arch", paramLabel = "ARCH", defaultValue = "x86_64", description = "With --git: x86_64 or aarch64 (default: ${DEFAULT-VALUE}).")
  String arch;

  @Option(names = "--pairs", paramLabel = "N", description = "With --git: pairs of each A/B, a fixed design instead of --looks.")
  Integer pairs;

  @Option(names = "--local-workers", paramLabel = "N", description = "With --git and no --controller: local workers (default: 1).")
  Integer localWorkers;

  @Option(names = "--fleet-config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one); with --git, --config is the kernel config.")
  Path fleetConfig;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--metric", paramLabel = "M", description = "Metric that regressed, e.g. seq_read (needed to start a bisect).")
  String metric;

  @Option(names = "--threshold", paramLabel = "R", description = "Noise threshold, relative (default: fleet.yaml, 0.02).")
  Double threshold;

  @Option(names = "--alpha", paramLabel = "A", description = "Significance level per probe (default: fleet.yaml, 0.05).")
  Double alpha;

  @Option(names = "--fraction", paramLabel = "F",
      description = "Fraction of the endpoints' regression a good probe's interval rules out, in (0, 1)"
          + " (default: 0.5; bisects of kernel lists, --git uses 0.5).")
  Double fraction;

  @Option(names = "--looks", split = ",", defaultValue = "10,15,20", paramLabel = "N",
      description = "Cumulative pair counts at which a probe may stop; the endpoints' experiment runs to the"
          + " last (default: ${DEFAULT-VALUE}).")
  List<Integer> looks;

  @Option(names = "--hypervisor", defaultValue = "qemu", paramLabel = "H", description = "qemu, vz or sim (default: ${DEFAULT-VALUE}).")
  String hypervisor;

  @Option(names = "--config", paramLabel = "FILE|BASE",
      description = "fleet.yaml (default: the built-in one); with --git the kernel config base as in abfleet build"
          + " (abfleet-minimal, tinyconfig, defconfig or a .config file; default abfleet-minimal).")
  String config;

  @Option(names = "--benchmark", paramLabel = "NAME", description = "Benchmark from fleet.yaml (default: default_benchmark).")
  String benchmarkName;

  @Option(names = "--attach", paramLabel = "ID", description = "Follow the running (or finished) bisect ID and print its report.")
  String attach;

  @Option(names = "--cancel", paramLabel = "ID", description = "Cancel the bisect ID and the experiment of its probe in flight.")
  String cancel;

  @Option(names = "--list", description = "List the bisects the controller knows, newest first.")
  boolean list;

  @Parameters(arity = "0..*", paramLabel = "KERNEL", description = "Kernel images, oldest (good) first, newest (regressed) last.")
  List<Path> kernels = List.of();

  /** Printed first (and last) when the probes ran on sim hosts: no result of sim is a measurement. */
  static final String SIMULATION = BisectReport.SIMULATION;

  @Override
  public Integer call() {
    return run(System.out, System.err);
  }

  /** The command with its output streams: the report to {@code out}, progress to {@code err}. */
  int run(PrintStream out, PrintStream err) {
    if (git != null) {
      return GitBisectOptions.run(this, out, err);
    }
    if (good != null || bad != null) {
      throw new Problem("--good and --bad name commits of a --git repository; add --git REPO, or list kernel"
          + " images oldest first");
    }
    if (controller == null) {
      throw new Problem("--controller HOST:PORT is required to bisect a list of kernels (or bisect commits with"
          + " --git REPO --good REF --bad REF)");
    }
    int modes = (attach != null ? 1 : 0) + (cancel != null ? 1 : 0) + (list ? 1 : 0);
    if (modes > 1 || (modes == 1 && !kernels.isEmpty())) {
      throw new Problem("give one of KERNEL..., --attach ID, --cancel ID or --list");
    }
    String target = ControllerAddress.check(controller, auth);
    if (list) {
      try (BisectClient client = new BisectClient(target, err)) {
        out.print(table(client.list().getBisectsList()));
        return ExitCodes.OK;
      }
    }
    if (cancel != null) {
      try (BisectClient client = new BisectClient(target, err)) {
        Bisect b = client.cancel(cancel, "cancelled with abfleet bisect --cancel");
        out.println("bisect " + b.getBisectId() + ": " + b.getState()
            + (b.getMessage().isEmpty() ? "" : " (" + b.getMessage() + ")"));
        return ExitCodes.OK;
      }
    }
    if (attach != null) {
      return follow(target, attach, out, err);
    }
    BisectStart start = new BisectStart(config(), benchmarkName, metric, hypervisor, threshold, alpha,
        looks, fraction, kernels);
    BisectStart.checkDesign(config(), null, looks, alpha, err);
    if (start.simulation()) {
      err.println("abfleet: bisect: " + SIMULATION);
    }
    String id;
    try (ExperimentClient experiments = new ExperimentClient(target, Reconnect.standard(target, err));
        BisectClient client = new BisectClient(target, err)) {
      id = client.start(start.request(experiments, BisectStart.newId(), err));
    }
    err.println("abfleet: bisect " + id + " started on the controller; it runs on if this command stops"
        + " (follow it again: abfleet bisect --controller " + controller + " --attach " + id
        + "; stop it: --cancel " + id + ")");
    return follow(target, id, out, err);
  }

  FleetConfig config() {
    if (fleetConfig != null) {
      return FleetConfigLoader.load(fleetConfig);
    }
    return config == null || git != null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(Path.of(config));
  }

  /** Follows bisect {@code id} to its end, then prints its report and answers its exit code. */
  private int follow(String target, String id, PrintStream out, PrintStream err) {
    Thread hint = new Thread(() -> err.println("abfleet: bisect " + id + " keeps running on the controller;"
        + " follow it again: abfleet bisect --controller " + controller + " --attach " + id));
    Runtime.getRuntime().addShutdownHook(hint);
    Bisect done;
    try (BisectClient client = new BisectClient(target, err)) {
      done = client.watch(id, new BisectProgress(err)::seen);
    } finally {
      removeHook(hint);
    }
    out.print(BisectReport.render(done));
    return switch (done.getState()) {
      case "found" -> ExitCodes.OK;
      case "ambiguous" -> ExitCodes.GATE;
      default -> {
        err.println("abfleet: bisect " + id + " " + done.getState() + ": " + done.getMessage());
        yield ExitCodes.FAILED;
      }
    };
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is on its way out: the hook runs and says how to follow the bisect again.
    }
  }

  static String table(List<BisectSummary> bisects) {
    if (bisects.isEmpty()) {
      return "no bisects\n";
    }
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-20s %-10s %-16s %-20s %-7s %s%n",
        "ID", "STATE", "METRIC", "STARTED", "PROBES", "KERNELS"));
    for (BisectSummary b : bisects) {
      out.append(String.format(Locale.ROOT, "%-20s %-10s %-16s %-20s %-7s %d%n", b.getBisectId(), b.getState(),
          b.getMetric(), Instant.ofEpochMilli(b.getStartedAtMs()).toString().substring(0, 19) + "Z",
          b.getProbesDone() + "/" + b.getMaxProbes(), b.getKernels()));
    }
    return out.toString();
  }
}
