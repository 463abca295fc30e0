package dev.abfleet.cli.bisect;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.PolicyRanges;
import dev.abfleet.config.Problem;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.stats.Policy;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.KernelImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
      "regressed on METRIC. Binary search; each probe is ONE A/B experiment of the last known-good",
      "kernel against the probed one, with the --looks as its sequential design: the controller stops",
      "it at the first look where METRIC is decided (alpha spent over the looks). A probe regressed is",
      "bad; improved, no change or shown not to regress beyond the threshold is good; a probe still",
      "undecided at the last look ends the search with the open range reported, not a guess.",
      "With --hypervisor sim the results are SIMULATION (sim placeholder kernels carry their effect).",
      "Exit codes: 0 found, 1 ambiguous (an inconclusive probe), 2 bad input, 3 an experiment failed."
    })public final class BisectCommand implements Callable<Integer> {
  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;


  @Option(names = "--metric", required = true, paramLabel = "M", description = "Metric that regressed, e.g. seq_read.")
  String metric;

  @Option(names = "--threshold", paramLabel = "R", description = "Noise threshold, relative (default: fleet.yaml, 0.02).")
  Double threshold;

  @Option(names = "--alpha", paramLabel = "A", description = "Significance level per probe (default: fleet.yaml, 0.05).")
  Double alpha;

  @Option(names = "--looks", split = ",", defaultValue = "10,15,20", paramLabel = "N",
      description = "Cumulative pair counts at which a probe may stop (default: ${DEFAULT-VALUE}).")
  List<Integer> looks;

  @Option(names = "--hypervisor", defaultValue = "qemu", paramLabel = "H", description = "qemu, vz or sim (default: ${DEFAULT-VALUE}).")
  String hypervisor;

  @Option(names = "--config", paramLabel = "FILE", description = "fleet.yaml (default: the built-in one).")
  Path config;

  @Option(names = "--benchmark", paramLabel = "NAME", description = "Benchmark from fleet.yaml (default: default_benchmark).")
  String benchmarkName;

  @Parameters(arity = "2..*", paramLabel = "KERNEL", description = "Kernel images, oldest (good) first, newest (regressed) last.")
  List<Path> kernels;

  /** Printed first (and last) when the probes ran on sim hosts: no result of sim is a measurement. */
  static final String SIMULATION = "SIMULATION: --hypervisor sim: every verdict below comes from the sim"
      + " performance model; no kernel was booted";

  @Override
  public Integer call() {
    return run(System.out, System.err);
  }

  /** The command with its output streams: the report to {@code out}, progress to {@code err}. */
  int run(PrintStream out, PrintStream err) {
    FleetConfig cfg = config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config);
    FleetConfig.Benchmark bench = cfg.benchmark(benchmarkName);
    if (!bench.metrics().contains(metric)) {
      throw new Problem("--metric " + metric + ": benchmark " + bench.name() + " measures " + String.join(", ", bench.metrics()));
    }
    if (!List.of("qemu", "vz", "sim").contains(hypervisor)) {
      throw new Problem("--hypervisor " + hypervisor + ": expected qemu, vz or sim");
    }
    Policy policy = policy(cfg);
    boolean sim = hypervisor.equals("sim");
    List<String> sha = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    for (Path k : kernels) {
      if (sim && !Files.isRegularFile(k)) {
        throw new Problem(k + ": not a file; for --hypervisor sim pass sim placeholder kernels"
            + " (abfleet sim-kernels writes them)");
      }
      if (!sim) {
        KernelImage.check(k).ifPresent(p -> {
          throw new Problem(k + ": " + p);
        });
      }
      try {
        paths.add(k.toAbsolutePath().normalize());
        sha.add(ArtifactCache.sha256(k));
      } catch (IOException e) {
        throw new Problem("cannot read " + k + " (" + e.getMessage() + ")");
      }
    }
    if (sim) {
      err.println("abfleet: bisect: " + SIMULATION);
    }
    try (ExperimentClient client = new ExperimentClient(dev.abfleet.cli.ControllerAddress.check(controller, auth))) {
      ProbeRunner runner = new GrpcProbeRunner(client, paths, sha, cfg, bench, metric, hypervisor, err);
      Bisection.Result r = Bisection.search(paths.size(), new SequentialProbe(runner, policy));
      out.print(report(r, paths, sim));
      return r.found() ? ExitCodes.OK : ExitCodes.GATE;
    }
  }

  private Policy policy(FleetConfig cfg) {
    double t = threshold != null ? PolicyRanges.threshold(threshold) : cfg.policy().noiseThreshold();
    double a = alpha != null ? PolicyRanges.alpha(alpha) : cfg.policy().alpha();
    for (int i = 0; i < looks.size(); i++) {
      if (looks.get(i) < 2 || (i > 0 && looks.get(i) <= looks.get(i - 1)) || looks.get(i) > 10_000) {
        throw new Problem("--looks " + looks + ": expected ascending pair counts from 2 to 10000, e.g. 10,15,20");
      }
    }
    return new Policy(t, a, looks);
  }

  /**
   * The search, one line per probe (one experiment each), and the answer with its cost; framed
   * by {@link #SIMULATION} lines when {@code simulation}.
   */
  static String report(Bisection.Result r, List<Path> kernels, boolean simulation) {
    StringBuilder out = new StringBuilder();
    if (simulation) {
      out.append(SIMULATION).append('\n');
    }
    for (Bisection.Step s : r.steps()) {
      ProbeResult p = s.result();
      out.append(String.format(Locale.ROOT, "probe #%d vs #%d: %-12s change %s [%s, %s], %d pairs, %d boots,"
          + " experiment %s: %s%n", s.probe(), s.good(), p.outcome().name().toLowerCase(Locale.ROOT),
          pct(p.change()), pct(p.ciLow()), pct(p.ciHigh()), p.pairs(), p.boots(), p.experiment(), p.note()));
    }
    if (r.found()) {
      out.append("first regressing: #").append(r.firstBad()).append(' ').append(kernels.get(r.firstBad()))
          .append(" (last good: #").append(r.lastGood()).append(' ').append(kernels.get(r.lastGood())).append(")\n");
    } else {
      out.append("ambiguous: the first regressing kernel is one of #").append(r.lastGood() + 1).append(" to #")
          .append(r.firstBad()).append("; probe #").append(r.ambiguous())
          .append(" stayed inconclusive at the last look (raise --looks or --threshold, or bisect that range again)\n");
    }
    out.append(String.format(Locale.ROOT, "cost: %d probes, %d experiments, %d pairs, %d boots%n",
        r.steps().size(), r.experiments(), r.pairs(), r.boots()));
    if (simulation) {
      out.append(SIMULATION).append('\n');
    }
    return out.toString();
  }

  private static String pct(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f%%", 100 * r) : "n/a";
  }
}
