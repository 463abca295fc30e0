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
 */
public record SimTokens(Map<String, Double> effects, OptionalDouble failRate, List<String> errors) {
  static final String EFFECT = "sim.effect.";
  static final String FAIL_RATE = "sim.fail_rate=";

  public SimTokens {
    effects = Map.copyOf(effects);
    errors = List.copyOf(errors);
  }

  /** Parses the {@code sim.} tokens of a whitespace-separated kernel command line. Total. */
  public static SimTokens parse(String cmdline) {
    Map<String, Double> effects = new LinkedHashMap<>();
    OptionalDouble failRate = OptionalDouble.empty();
    List<String> errors = new ArrayList<>();
    for (String token : (cmdline == null ? "" : cmdline.strip()).split("\\s+")) {
      if (!token.startsWith("sim.")) {
        continue;
      }
      if (token.startsWith(EFFECT) && token.indexOf('=') > EFFECT.length()) {
        String metric = token.substring(EFFECT.length(), token.indexOf('='));
        double f = number(token.substring(token.indexOf('=') + 1));
        if (!(f > 0 && Double.isFinite(f))) {
          errors.add("'" + token + "': the factor must be a number > 0, e.g. " + EFFECT + metric + "=1.05");
        } else if (effects.put(metric, f) != null) {
          errors.add("'" + token + "': " + EFFECT + metric + " is given twice; keep one");
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
    return new SimTokens(effects, failRate, errors);
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
    return new SimTokens(merged, failRate, allErrors);
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
