package dev.abfleet.cli.calibrate;

import dev.abfleet.bench.calibrate.Calibration;
import dev.abfleet.bench.calibrate.CalibrationTable;
import dev.abfleet.bench.calibrate.Scenario;
import dev.abfleet.bench.calibrate.SmallSamples;
import dev.abfleet.bench.calibrate.Wilson;

import dev.abfleet.config.Problem;
import dev.abfleet.stats.Policy;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet calibrate}: measures the verdict engine's error rates by simulation. */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate A/A and A/B experiments under fleet-like noise (lognormal boots, drift,",
      "slow-boot outliers, host offsets, bimodal boots, issue 25's slow boots) and print, per scenario and rule:",
      "A/A false-positive rate (any of the gating metrics), power at ±5%% and ±10%% on one",
      "metric, interval coverage and the mean pairs used. abfleet is measured next to a",
      "benchstat-like pooled Mann-Whitney, a Pinpoint-like adaptive re-test and a threshold",
      "gate on the same data. A benchmark, not a test: figures are printed, not asserted.",
      "With --pairs 8,12,16,32: the fixed-size rules at each pair count (sequential rules at 32",
      "only), each rate with its 95%% Wilson interval over the simulated experiments.",
      "With --real: K A/A experiments (one kernel as both arms) on this machine's QEMU (or a",
      "--controller's hosts); per host class the measured false-positive rate, the CV of boot",
      "medians and the paired sd are merged into $ABFLEET_HOME/noise and quoted by later reports."
    })
public final class CalibrateCommand implements Callable<Integer> {
  @Option(names = "--experiments", defaultValue = "400", paramLabel = "N",
      description = "Experiments per scenario and effect size (default: ${DEFAULT-VALUE}).")
  int experiments;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
      description = "Seed of the simulation (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--metrics", defaultValue = "4", paramLabel = "M",
      description = "Gating metrics per experiment (default: ${DEFAULT-VALUE}).")
  int metrics;

  @Option(names = "--scenario", paramLabel = "NAME",
      description = "Only this scenario: lognormal, drift, outliers, hosts, bimodal, slowboot or"
          + " slowboot30 (the last two are meant with --metrics 1).")
  String scenario;

  @Option(names = "--pairs", split = ",", paramLabel = "N,N...",
      description = "Measure at these pair counts, e.g. 8,12,16,32 (default: the 32-pair"
          + " table with coverage and pairs used).")
  List<Integer> pairs;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text or markdown, with --real also json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--real",
      description = "Run A/A experiments on real hosts (default --experiments 3, --pairs 4) and record their noise.")
  boolean real;

  @picocli.CommandLine.Mixin RealCalibrateOptions realOptions;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec commandSpec;

  PrintStream out = System.out;

  @Override
  public Integer call() {
    if (real) {
      return callReal();
    }
    String realOnly = realOptions.firstGiven();
    if (realOnly != null) {
      throw new Problem(realOnly + " is an option of calibrate --real (A/A experiments on real hosts); add --real,"
          + " or drop " + realOnly + " to simulate");
    }
    if (experiments < 10 || experiments > 1_000_000) {
      throw new Problem("--experiments " + experiments + ": expected 10 to 1000000");
    }
    if (metrics < 1 || metrics > 50) {
      throw new Problem("--metrics " + metrics + ": expected 1 to 50");
    }
    boolean markdown = switch (format.toLowerCase(Locale.ROOT)) {
      case "text" -> false;
      case "markdown", "md" -> true;
      default -> throw new Problem("--format '" + format + "': expected text or markdown");
    };
    List<Scenario> scenarios = new ArrayList<>(List.of(Scenario.values()));
    if (scenario != null) {
      scenarios = List.of(scenarios.stream().filter(s -> s.label.equals(scenario)).findFirst()
          .orElseThrow(() -> new Problem("--scenario '" + scenario
              + "': expected lognormal, drift, outliers, hosts, bimodal, slowboot or slowboot30")));
    }
    long start = System.nanoTime();
    String pairsNote;
    if (pairs == null) {
      List<Calibration.Row> rows = new ArrayList<>();
      for (Scenario s : scenarios) {
        rows.addAll(Calibration.run(s, experiments, seed, metrics, Policy.DEFAULT));
      }
      out.print(CalibrationTable.render(rows, markdown));
      pairsNote = "32 pairs at most";
    } else {
      List<SmallSamples.Row> rows = new ArrayList<>();
      for (Scenario s : scenarios) {
        for (int n : pairCounts()) {
          rows.addAll(SmallSamples.run(s, experiments, seed, metrics, Policy.DEFAULT, n));
        }
      }
      out.print(CalibrationTable.renderSmall(rows, markdown));
      pairsNote = "exactly " + pairCounts().stream().map(String::valueOf)
          .collect(java.util.stream.Collectors.joining(", ")) + " pairs; [95% Wilson interval]";
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    out.printf(Locale.ROOT, "%n%d experiments per scenario and effect (A/A, ±5%%, ±10%% on "
        + "metric 0), %d gating metrics, %s, seed %d; alpha 0.05, noise "
        + "threshold 2%%; %.0f s%n", experiments, metrics, pairsNote, seed, seconds);
    for (Scenario s : scenarios) {
      out.println(s.label + ": " + s.description);
    }
    out.flush();
    return 0;
  }

  /** --real: --experiments and --pairs default to a few A/A experiments when not given. */
  private int callReal() {
    var given = commandSpec.commandLine().getParseResult();
    int k = given != null && given.hasMatchedOption("--experiments") ? experiments
        : RealCalibrateOptions.DEFAULT_EXPERIMENTS;
    if (pairs != null && pairs.size() != 1) {
      throw new Problem("--pairs " + pairs + ": with --real give one pair count, e.g. --pairs 4");
    }
    int n = pairs == null ? RealCalibrateOptions.DEFAULT_PAIRS : pairs.get(0) == null ? 0 : pairs.get(0);
    return realOptions.run(k, n, format, out, System.err, java.time.Clock.systemUTC());
  }

  private List<Integer> pairCounts() {
    for (Integer n : pairs) {
      if (n == null || n < 4 || n > 200) {
        throw new Problem("--pairs " + n + ": expected pair counts from 4 to 200, e.g."
            + " --pairs 8,12,16,32");
      }
    }
    return pairs.stream().distinct().sorted().toList();
  }
}
