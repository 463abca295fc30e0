package dev.abfleet.cli.plan;

import dev.abfleet.stats.PowerPlan;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.Problem;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.ControllerNoise;
import dev.abfleet.cli.noise.NoiseSource;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.report.NoiseSection;
import dev.abfleet.report.Numbers;
import dev.abfleet.worker.WorkerSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet plan}: pairs needed for a minimum detectable effect, from the measured noise. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
      "From the noise abfleet calibrate --real measured (in $ABFLEET_HOME/noise), print per host class",
      "and metric the pairs a paired A/B experiment needs for a change of --mde to be called improved",
      "or regressed with probability --power: significant two-sided at --alpha split over the gating",
      "metrics (Bonferroni) and estimated beyond the noise --threshold, on log ratios with the measured",
      "paired noise: resampling the recorded paired log ratios when 20 or more are kept, else from their",
      "sd (signed-rank efficiency 3/pi, Student's t at small n, plans of up to 40 pairs checked by",
      "simulating the exact test). --mde must be larger than --threshold. Classes of sim hosts (calibrated with",
      "calibrate --real --hypervisor sim) are marked SIMULATION: their noise is the sim model's."
    })
public final class PlanCommand implements Callable<Integer> {
  @Option(names = "--mde", required = true, paramLabel = "CHANGE",
      description = "Minimum detectable effect: 2%% or 0.02.")
  String mde;

  @Option(names = "--threshold", paramLabel = "R",
      description = "The experiments' noise threshold, relative: a change must be estimated beyond it to be"
          + " called (default: --config's policy.noise_threshold, as ab's; 0.02 built in).")
  Double threshold;

  @Option(names = "--config", paramLabel = "FILE",
      description = "fleet.yaml whose policy gives --threshold and --alpha (default: the built-in one).")
  Path config;

  @Option(names = "--class", paramLabel = "KEY",
      description = "Only this host class: its key (file name in $ABFLEET_HOME/noise, e.g. qemu_tcg) or label.")
  String hostClass;

  @Option(names = "--alpha", paramLabel = "A",
      description = "Family-wise significance level (default: --config's policy.alpha; 0.05 built in).")
  Double alphaOption;

  @Option(names = "--power", defaultValue = "0.8", paramLabel = "P", description = "Power (default: ${DEFAULT-VALUE}).")
  double power;

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]",
      description = "Plan from this controller's noise records (those every client of it quotes) instead of"
          + " $ABFLEET_HOME/noise.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  PrintStream err = System.err;

  @Option(names = "--metrics", split = ",", paramLabel = "M",
      description = "Only these metrics; the alpha is split over them (default: each class's gating metrics).")
  List<String> metrics;

  PrintStream out = System.out;

  /** How to record a sim fleet's noise, added to the hint when there is none. */
  static final String ON_SIM = " (sim hosts: `abfleet calibrate --real --controller HOST:PORT --hypervisor sim`)";

  /** Printed under a plan that holds a sim class. */
  static final String SIMULATED = "SIMULATION: a class marked (SIMULATION) is of sim hosts: its pairs are planned"
      + " from the sim performance model's noise, for capacity planning of the sim fleet; they say nothing of"
      + " the pairs a real host needs (calibrate real hosts for that)";

  @Override
  public Integer call() {
    FleetConfig.Policy policy = (config == null ? FleetConfigLoader.embeddedDefault() : FleetConfigLoader.load(config))
        .policy();
    double threshold = this.threshold != null ? this.threshold : policy.noiseThreshold();
    double alpha = alphaOption != null ? alphaOption : policy.alpha();
    double change = parseMde(mde);
    if (!(threshold >= 0 && threshold < 1)) {
      throw new Problem("--threshold " + threshold + ": expected a relative change from 0 to below 1, e.g. 0.02");
    }
    if (!PowerPlan.reachable(change, threshold)) {
      throw new Problem("--mde " + mde + " is not larger than the noise threshold " + NoiseSection.pct(threshold)
          + ": a change within the threshold is never called improved or regressed, whatever the pairs;"
          + " plan for a larger --mde (e.g. " + NoiseSection.pct(2 * Math.max(threshold, 0.01)) + ") or give the"
          + " experiments a lower --threshold");
    }
    if (!(alpha > 0 && alpha < 1)) {
      throw new Problem("--alpha " + alpha + ": expected a level between 0 and 1, e.g. 0.05");
    }
    if (!(power > 0 && power < 1)) {
      throw new Problem("--power " + power + ": expected a probability between 0 and 1, e.g. 0.8");
    }
    NoiseSource store = noise();
    List<NoiseRecord> records = hostClass == null ? store.loadAll()
        : store.loadKey(hostClass).map(List::of).orElse(List.of());
    if (records.isEmpty()) {
      List<String> known = hostClass == null ? List.of()
          : store.loadAll().stream().map(r -> NoiseStore.key(r.hostClass())).toList();
      throw new Problem("no noise records" + (hostClass == null ? "" : " for host class '" + hostClass + "'")
          + " in " + store.where() + (known.isEmpty() ? "; run `abfleet calibrate --real` first" + ON_SIM
              : "; recorded classes: " + String.join(", ", known) + " (or run `abfleet calibrate --real` on it first"
                  + ON_SIM + ")"));
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"host class", "metric", "paired sd", "calibration pairs", "pairs needed"});
    for (NoiseRecord r : records) {
      List<String> family = family(r);
      for (String name : family) {
        MetricNoise m = r.metric(name);
        long n = m == null ? -1 : m.pairsFor(change, threshold, alpha, family.size(), power);
        rows.add(new String[] {r.shownClass(), name, m == null ? "?" : NoiseSection.pct(m.pairedSd()),
            m == null ? "0" : String.valueOf(m.pairs()), n < 0 ? "? (not measured)" : String.valueOf(n)});
      }
    }
    out.print(Numbers.table(rows));
    out.printf(Locale.ROOT, "%na change of %s called at %s power: significant at alpha %s two-sided split over"
        + " each class's %s metrics (Bonferroni) and estimated beyond the noise threshold %s; the exact paired"
        + " signed-rank test simulated on the recorded paired log ratios (%d or more kept), else the normal plan"
        + " from their sd (efficiency 3/pi, Student's t, simulated up to %d pairs); at least %d pairs%n",
        NoiseSection.pct(change), NoiseSection.pct(power), alpha, metrics == null ? "gating" : "listed",
        NoiseSection.pct(threshold), PowerPlan.MIN_SAMPLE, PowerPlan.SIMULATED_UP_TO, PowerPlan.MIN_PAIRS);
    if (records.stream().anyMatch(NoiseRecord::simulated)) {
      out.printf("%n%s%n", SIMULATED);
    }
    out.flush();
    return 0;
  }

  /** The controller's records with --controller (read once), else this machine's. */
  private NoiseSource noise() {
    NoiseStore local = NoiseStore.inHome(WorkerSettings.defaultHome());
    if (controller == null) {
      return local;
    }
    String target = dev.abfleet.cli.ControllerAddress.check(controller, auth);
    io.grpc.ManagedChannel channel = dev.abfleet.cli.ControllerAddress.channel(target);
    try {
      return ControllerNoise.read(channel, target, local, err);
    } catch (io.grpc.StatusRuntimeException e) {
      throw new Problem("cannot read the noise records of the controller at " + target + " ("
          + e.getStatus().getCode() + ": " + e.getStatus().getDescription() + "); check --controller and the token");
    } finally {
      dev.abfleet.cli.ControllerAddress.close(channel);
    }
  }

  /** --metrics, else the record's gating metrics, else every metric it measured. */
  private List<String> family(NoiseRecord r) {
    if (metrics != null) {
      return metrics.stream().map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
    }
    return !r.gating().isEmpty() ? r.gating() : r.metrics().stream().map(MetricNoise::metric).toList();
  }

  /** "2%" or "0.02" as 0.02. @throws Problem outside (0, 100%) */
  static double parseMde(String s) {
    String t = s == null ? "" : s.trim();
    boolean percent = t.endsWith("%");
    double v;
    try {
      v = Double.parseDouble(percent ? t.substring(0, t.length() - 1).trim() : t);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    double fraction = percent ? v / 100 : v;
    if (!(fraction > 0 && fraction < 1)) {
      throw new Problem("--mde '" + s + "': expected --mde 2% or 0.02, between 0 and 100%");
    }
    return fraction;
  }
}
