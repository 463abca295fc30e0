package dev.abfleet.worker.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads a {@link SimModel} from YAML. Every key is optional and falls back to
 * {@link SimModel#defaults()}; a {@code metrics} mapping replaces the default metric list, and a
 * metric named like a fleetbench metric inherits that metric's defaults:
 *
 * <pre>
 * seed: 7
 * time_scale: 0.01          # real seconds per simulated second
 * fail_rate: 0.0
 * host_sigma: 0.03
 * metrics:
 *   metadata_stat: {base: 80000, boot_sigma: 0.08, iteration_sigma: 0.02}
 *   seq_read: {base: 1400, unit: MiB/s, better: higher}
 * boot: {median_s: 2.5, sigma: 0.15, slow_rate: 0.01, slow_factor: 4, shutdown_s: 0.3}
 * drift: {amplitude: 0.02, period_s: 3600}
 * outliers: {rate: 0.01, factor: 0.7}
 * bimodal: {rate: 0.0, factor: 0.85}
 * </pre>
 *
 * Errors are {@link IllegalArgumentException}s whose message starts with the file name and names
 * the key and the fix.
 */
public final class SimModelYaml {
  private static final Set<String> TOP = Set.of(
      "seed", "time_scale", "fail_rate", "host_sigma", "metrics", "boot", "drift", "outliers", "bimodal");
  private static final Set<String> METRIC = Set.of("base", "unit", "better", "boot_sigma", "iteration_sigma");
  private static final Set<String> BOOT = Set.of("median_s", "sigma", "slow_rate", "slow_factor", "shutdown_s");
  private static final Set<String> RATE_FACTOR = Set.of("rate", "factor");
  private static final Set<String> DRIFT = Set.of("amplitude", "period_s");

  private SimModelYaml() {}

  /** Reads {@code file}; an unreadable file or bad content throws IllegalArgumentException. */
  public static SimModel load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read the sim model: " + e.getMessage(), e);
    }
    return parse(file.toString(), text);
  }

  /** Parses YAML text; {@code source} names it in error messages. */
  public static SimModel parse(String source, String yaml) {
    try {
      Object root = new Load(LoadSettings.builder().build()).loadFromString(yaml);
      return root == null ? SimModel.defaults() : model(mapping(root, "the top level", TOP));
    } catch (YamlEngineException e) {
      throw new IllegalArgumentException(source + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static SimModel model(Map<String, Object> top) {
    SimModel d = SimModel.defaults();
    SimBootTiming db = d.boot();
    SimNoise dn = d.noise();
    Map<String, Object> boot = section(top, "boot", BOOT);
    Map<String, Object> drift = section(top, "drift", DRIFT);
    Map<String, Object> outliers = section(top, "outliers", RATE_FACTOR);
    Map<String, Object> bimodal = section(top, "bimodal", RATE_FACTOR);
    return new SimModel(
        seed(top.get("seed"), d.seed()),
        number(top, "time_scale", "time_scale", d.timeScale()),
        top.containsKey("metrics") ? metrics(mapping(top.get("metrics"), "metrics", null)) : d.metrics(),
        new SimBootTiming(
            number(boot, "median_s", "boot.median_s", db.medianS()),
            number(boot, "sigma", "boot.sigma", db.sigma()),
            number(boot, "slow_rate", "boot.slow_rate", db.slowRate()),
            number(boot, "slow_factor", "boot.slow_factor", db.slowFactor()),
            number(boot, "shutdown_s", "boot.shutdown_s", db.shutdownS())),
        new SimNoise(
            number(top, "host_sigma", "host_sigma", dn.hostSigma()),
            number(drift, "amplitude", "drift.amplitude", dn.driftAmplitude()),
            number(drift, "period_s", "drift.period_s", dn.driftPeriodS()),
            number(outliers, "rate", "outliers.rate", dn.outlierRate()),
            number(outliers, "factor", "outliers.factor", dn.outlierFactor()),
            number(bimodal, "rate", "bimodal.rate", dn.bimodalRate()),
            number(bimodal, "factor", "bimodal.factor", dn.bimodalFactor())),
        number(top, "fail_rate", "fail_rate", d.failRate()));
  }

  private static List<SimMetric> metrics(Map<String, Object> byName) {
    List<SimMetric> out = new ArrayList<>();
    for (var e : byName.entrySet()) {
      String name = e.getKey();
      String at = "metrics." + name;
      Map<String, Object> m = e.getValue() == null ? Map.of() : mapping(e.getValue(), at, METRIC);
      var known = SimModel.FLEETBENCH.stream().filter(f -> f.name().equals(name)).findFirst();
      if (!m.containsKey("base") && known.isEmpty()) {
        throw new IllegalArgumentException(at + ".base is missing; give the metric's median value, e.g. base: 1000");
      }
      SimMetric fallback = known.orElse(new SimMetric(name, 1, "ops/s", "higher", 0.05, 0.02));
      out.add(new SimMetric(name,
          number(m, "base", at + ".base", fallback.base()),
          string(m, "unit", at + ".unit", fallback.unit()),
          string(m, "better", at + ".better", fallback.better()),
          number(m, "boot_sigma", at + ".boot_sigma", fallback.bootSigma()),
          number(m, "iteration_sigma", at + ".iteration_sigma", fallback.iterationSigma())));
    }
    return out;
  }

  private static long seed(Object v, long fallback) {
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Integer || v instanceof Long)) {
      throw new IllegalArgumentException("seed is '" + v + "'; expected a whole number (64-bit)");
    }
    return ((Number) v).longValue();
  }

  private static Map<String, Object> section(Map<String, Object> top, String key, Set<String> allowed) {
    return top.containsKey(key) ? mapping(top.get(key), key, allowed) : Map.of();
  }

  private static Map<String, Object> mapping(Object node, String at, Set<String> allowed) {
    if (!(node instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(at + " must be a mapping (key: value lines)");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (var e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      if (allowed != null && !allowed.contains(key)) {
        throw new IllegalArgumentException("unknown key '" + key + "' under " + at + "; expected one of "
            + String.join(", ", allowed.stream().sorted().toList()));
      }
      out.put(key, e.getValue());
    }
    return out;
  }

  private static double number(Map<String, Object> m, String key, String at, double fallback) {
    Object v = m.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException(at + " is '" + v + "'; expected a number");
    }
    return n.doubleValue();
  }

  private static String string(Map<String, Object> m, String key, String at, String fallback) {
    Object v = m.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException(at + " is '" + v + "'; expected a word");
    }
    return s;
  }
}
