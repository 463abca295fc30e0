package dev.abfleet.worker.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What an arm asks of the simulation, read from its kernel command line extras, so that a
 * submitted experiment describes its own simulated effect:
 *
 * <ul>
 *   <li>{@code sim.effect.<metric>=<factor>}: multiplies that metric's value, e.g.
 *       {@code sim.effect.metadata_stat=1.58} for +58%; factor &gt; 0
 *   <li>{@code sim.effect.<metric>@<host-prefix>=<factor>}: the same, only on hosts whose id
 *       starts with {@code <host-prefix>} ([A-Za-z0-9_.-]+), where it replaces the plain effect
 *       (the longest matching prefix wins), e.g. {@code sim.effect.metadata_stat@b-=0.8} for a
 *       candidate that regresses on one class of hosts only (cross-host tests)
 *   <li>{@code sim.fail_rate=<p>}: probability that a boot of this arm panics before the
 *       harness starts, 0..1; overrides the model's fail_rate
 * </ul>
 *
 * Tokens outside {@code sim.} are ordinary kernel arguments and are ignored. A malformed or
 * unknown {@code sim.} token is an error (reported by the simulated harness, so the arm's boots
 * fail as HARNESS with the message) rather than silently simulating nothing. A sim kernel file
 * may carry effects as well ({@link SimKernelEffects}, applied with {@link #with}): factors of
 * the same metric multiply.
 *
 * @param effects factor per metric; absent = 1
 * @param failRate the arm's boot failure probability, if it set one
 * @param errors one message per bad token, naming the token and the fix
 * @param hostEffects host-id prefix -> factor per metric, for hosts whose id starts with it
 */
public record SimTokens(Map<String, Double> effects, OptionalDouble failRate, List<String> errors,
    Map<String, Map<String, Double>> hostEffects) {
  static final String EFFECT = "sim.effect.";
  static final String FAIL_RATE = "sim.fail_rate=";

  private static final java.util.regex.Pattern PREFIX = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]+");

  public SimTokens {
    effects = Map.copyOf(effects);
    errors = List.copyOf(errors);
    Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
    (hostEffects == null ? Map.<String, Map<String, Double>>of() : hostEffects)
        .forEach((k, v) -> copy.put(k, Map.copyOf(v)));
    hostEffects = Map.copyOf(copy);
  }

  /** Tokens without host-specific effects. */
  public SimTokens(Map<String, Double> effects, OptionalDouble failRate, List<String> errors) {
    this(effects, failRate, errors, Map.of());
  }

  /** Parses the {@code sim.} tokens of a whitespace-separated kernel command line. Total. */
  public static SimTokens parse(String cmdline) {
    Map<String, Double> effects = new LinkedHashMap<>();
    Map<String, Map<String, Double>> hostEffects = new LinkedHashMap<>();
    OptionalDouble failRate = OptionalDouble.empty();
    List<String> errors = new ArrayList<>();
    for (String token : (cmdline == null ? "" : cmdline.strip()).split("\\s+")) {
      if (!token.startsWith("sim.")) {
        continue;
      }
      if (token.startsWith(EFFECT) && token.indexOf('=') > EFFECT.length()) {
        String key = token.substring(EFFECT.length(), token.indexOf('='));
        String metric = key.contains("@") ? key.substring(0, key.indexOf('@')) : key;
        String prefix = key.contains("@") ? key.substring(key.indexOf('@') + 1) : null;
        double f = number(token.substring(token.indexOf('=') + 1));
        if (metric.isEmpty() || (prefix != null && !PREFIX.matcher(prefix).matches())) {
          errors.add("'" + token + "': expected " + EFFECT + "<metric>@<host-prefix>=<factor> with a"
              + " host-id prefix of [A-Za-z0-9_.-]+, e.g. " + EFFECT + "metadata_stat@sim-b-=0.8");
        } else if (!(f > 0 && Double.isFinite(f))) {
          errors.add("'" + token + "': the factor must be a number > 0, e.g. " + EFFECT + key + "=1.05");
        } else if ((prefix == null ? effects
            : hostEffects.computeIfAbsent(prefix, p -> new LinkedHashMap<>())).put(metric, f) != null) {
          errors.add("'" + token + "': " + EFFECT + key + " is given twice; keep one");
        }
      } else if (token.startsWith(FAIL_RATE)) {
        double p = number(token.substring(FAIL_RATE.length()));
        if (!(p >= 0 && p <= 1)) {
          errors.add("'" + token + "': the rate must be a probability from 0 to 1, e.g. " + FAIL_RATE + "0.1");
        } else {
          failRate = OptionalDouble.of(p);
        }
      } else {
        errors.add("unknown sim token '" + token + "'; expected " + EFFECT + "<metric>=<factor> or "
            + FAIL_RATE + "<probability>");
      }
    }
    return new SimTokens(effects, failRate, errors, hostEffects);
  }

  /** The factor for {@code metric}; 1 when the arm set none. */
  public double effect(String metric) {
    return effects.getOrDefault(metric, 1.0);
  }

  /**
   * These tokens with a sim kernel file's effects applied too: a metric named by both gets the
   * product of the two factors; the file's errors are added to the tokens' errors.
   */
  public SimTokens with(SimKernelEffects kernel) {
    if (kernel.effects().isEmpty() && kernel.errors().isEmpty()) {
      return this;
    }
    Map<String, Double> merged = new LinkedHashMap<>(effects);
    kernel.effects().forEach((metric, f) -> merged.merge(metric, f, (a, b) -> a * b));
    List<String> allErrors = new ArrayList<>(errors);
    allErrors.addAll(kernel.errors());
    return new SimTokens(merged, failRate, allErrors, hostEffects);
  }

  /**
   * The factor for {@code metric} on {@code hostId}: the effect of the longest host-id prefix
   * that matches and names the metric, else {@link #effect(String)}.
   */
  public double effect(String metric, String hostId) {
    String best = null;
    for (var e : hostEffects.entrySet()) {
      if (hostId.startsWith(e.getKey()) && e.getValue().containsKey(metric)
          && (best == null || e.getKey().length() > best.length())) {
        best = e.getKey();
      }
    }
    return best == null ? effect(metric) : hostEffects.get(best).get(metric);
  }

  /** Every metric an effect names, plain or host-specific. */
  public java.util.Set<String> effectMetrics() {
    java.util.Set<String> all = new java.util.LinkedHashSet<>(effects.keySet());
    hostEffects.values().forEach(m -> all.addAll(m.keySet()));
    return all;
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
