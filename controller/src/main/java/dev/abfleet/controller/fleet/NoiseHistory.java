package dev.abfleet.controller.fleet;

import dev.abfleet.stats.VerdictEngine;
import java.util.Arrays;
import dev.abfleet.controller.collection.PersistentMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Each host's paired noise over time, to catch a host whose noise drifts well past its own
 * history (a failing fan, a noisy neighbour, a firmware update) before it spoils verdicts.
 *
 * <p>The unit is one absolute residual |d - median(d)| of a paired log-ratio d within one
 * experiment and metric: the pair's difference with the experiment's effect taken out, i.e.
 * what an A/A pair on that host would show. A host drifts when the median of its
 * {@link Rule#recent} newest residuals exceeds {@link Rule#factor} times the median of the
 * older ones (at least {@link Rule#minHistory} of them) and an absolute floor. Medians keep one
 * slow boot from deciding. Part of the scheduler's persisted state: a controller restart keeps it.
 *
 * @param residuals host id -> absolute residuals, oldest first, at most {@link Rule#keep}
 */
public record NoiseHistory(Map<String, double[]> residuals) {
  /**
   * @param recent residuals that make up the newest window
   * @param minHistory older residuals needed before the host can drift
   * @param keep residuals kept per host (newest and older together)
   * @param factor how many times its history's median the newest window's median must exceed
   * @param floor the newest window's median must also exceed this (log units, 0.005 = 0.5%)
   */
  public record Rule(int recent, int minHistory, int keep, double factor, double floor) {
    public Rule {
      if (recent < 1 || minHistory < 1 || keep < recent + minHistory || !(factor > 1) || !(floor >= 0)) {
        throw new IllegalArgumentException("noise rule " + recent + "/" + minHistory + "/" + keep
            + "/" + factor + "/" + floor + ": need recent, minHistory >= 1, keep >= recent +"
            + " minHistory, factor > 1, floor >= 0");
      }
    }

    /** 24 newest residuals vs at least 48 older ones, 3x their median and above 0.5%. */
    public static Rule defaults() {
      return new Rule(24, 48, 256, 3.0, 0.005);
    }
  }

  public NoiseHistory {
    residuals = PersistentMap.of(residuals);
  }

  public static NoiseHistory empty() {
    return new NoiseHistory(Map.of());
  }

  /** The history with {@code observed} (absolute residuals, in the order seen) appended. */
  public NoiseHistory observed(String hostId, double[] observed, Rule rule) {
    return observed(hostId, observed, rule.keep());
  }

  /** The history with {@code observed} appended, keeping the newest {@code keep} per host. */
  public NoiseHistory observed(String hostId, double[] observed, int keep) {
    double[] finite = Arrays.stream(observed).filter(Double::isFinite).map(Math::abs).toArray();
    if (finite.length == 0) {
      return this;
    }
    double[] old = residuals.getOrDefault(hostId, new double[0]);
    double[] all = new double[old.length + finite.length];
    System.arraycopy(old, 0, all, 0, old.length);
    System.arraycopy(finite, 0, all, old.length, finite.length);
    return new NoiseHistory(((PersistentMap<String, double[]>) residuals)
        .with(hostId, Arrays.copyOfRange(all, Math.max(0, all.length - keep), all.length)));
  }

  /** The host starts over (after a quarantine: its old noise says nothing about the repair). */
  public NoiseHistory forgotten(String hostId) {
    if (!residuals.containsKey(hostId)) {
      return this;
    }
    return new NoiseHistory(((PersistentMap<String, double[]>) residuals).without(hostId));
  }

  /**
   * The host's current paired noise: the median absolute residual of its newest residuals, at
   * most {@code window} of them, as a percentage ({@code 100 * expm1(median)}, the unit drift
   * reasons use); {@link Latest#none()} when the host has no residual yet.
   */
  public Latest latest(String hostId, int window) {
    double[] r = residuals.getOrDefault(hostId, new double[0]);
    if (r.length == 0) {
      return Latest.none();
    }
    double[] newest = Arrays.copyOfRange(r, Math.max(0, r.length - window), r.length);
    return new Latest(100 * Math.expm1(VerdictEngine.median(newest)), newest.length);
  }

  /**
   * A host's current paired noise as the hosts listing shows it.
   *
   * @param medianResidualPercent median |paired residual| over the newest pairs, in percent
   * @param pairs how many pairs (residuals) that median is over; 0 = no noise known yet
   */
  public record Latest(double medianResidualPercent, int pairs) {
    public static Latest none() {
      return new Latest(0, 0);
    }

    public boolean known() {
      return pairs > 0;
    }
  }

  /** Why the host's noise has drifted past its history, or empty when it has not (or too little is known). */
  public Optional<String> drift(String hostId, Rule rule) {
    double[] r = residuals.getOrDefault(hostId, new double[0]);
    if (r.length < rule.recent() + rule.minHistory()) {
      return Optional.empty();
    }
    double before = VerdictEngine.median(Arrays.copyOfRange(r, 0, r.length - rule.recent()));
    double now = VerdictEngine.median(Arrays.copyOfRange(r, r.length - rule.recent(), r.length));
    if (now > rule.floor() && now > rule.factor() * before) {
      return Optional.of(String.format(Locale.ROOT,
          "paired noise drifted: median |residual| %.2f%% over its last %d pairs vs %.2f%% over"
              + " the %d before (limit %.1fx)", 100 * Math.expm1(now), rule.recent(),
          100 * Math.expm1(before), r.length - rule.recent(), rule.factor()));
    }
    return Optional.empty();
  }
}
