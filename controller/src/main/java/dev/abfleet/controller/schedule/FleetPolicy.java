package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.NoiseHistory;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import java.time.Duration;

/**
 * How the scheduler guards the fleet against broken hosts and stuck blocks.
 *
 * @param quarantineAfter INFRA failures in a row that quarantine a host (at least 1)
 * @param quarantineCap largest fraction of the known hosts quarantined at once, in (0, 1]; the
 *     cap is at least one host, and a fleet of a single host never quarantines it (there is
 *     nowhere else to run)
 * @param noiseRule when a host's paired noise has drifted past its history (then quarantined)
 * @param quarantineCoolDown how long a quarantine lasts unless an operator releases it first
 * @param leaseTimeoutFactor a block's lease is revoked after this many times the sum of its boot
 *     timeouts without BlockFinished (at least 1)
 */
public record FleetPolicy(
    int quarantineAfter, double quarantineCap, Duration quarantineCoolDown, double leaseTimeoutFactor,
    NoiseHistory.Rule noiseRule) {

  /** With the default noise-drift rule. */
  public FleetPolicy(int quarantineAfter, double quarantineCap, Duration quarantineCoolDown,
      double leaseTimeoutFactor) {
    this(quarantineAfter, quarantineCap, quarantineCoolDown, leaseTimeoutFactor, NoiseHistory.Rule.defaults());
  }

  /** The same policy with another noise-drift rule. */
  public FleetPolicy withNoiseRule(NoiseHistory.Rule rule) {
    return new FleetPolicy(quarantineAfter, quarantineCap, quarantineCoolDown, leaseTimeoutFactor, rule);
  }

  public FleetPolicy {
    if (quarantineAfter < 1) {
      throw new IllegalArgumentException("quarantineAfter " + quarantineAfter + ": use 1 or more");
    }
    if (!(quarantineCap > 0 && quarantineCap <= 1)) {
      throw new IllegalArgumentException("quarantineCap " + quarantineCap
          + ": use a fraction in (0, 1], e.g. 0.25");
    }
    if (quarantineCoolDown.isNegative() || quarantineCoolDown.isZero()) {
      throw new IllegalArgumentException("quarantineCoolDown " + quarantineCoolDown + ": must be positive");
    }
    if (!(leaseTimeoutFactor >= 1)) {
      throw new IllegalArgumentException("leaseTimeoutFactor " + leaseTimeoutFactor + ": use 1 or more, e.g. 2");
    }
  }

  /** 3 INFRA failures in a row, at most 25% of the fleet, 30 minutes, 2 x the boot timeouts. */
  public static FleetPolicy defaults() {
    return new FleetPolicy(3, 0.25, Duration.ofMinutes(30), 2.0);
  }

  /** The longest a block may hold its host: factor x the sum of its boots' timeouts; 0 = no limit. */
  public Duration leaseTimeout(Block block) {
    long seconds = block.runs().stream().mapToLong(RunPlan::timeoutS).sum();
    return Duration.ofMillis((long) (seconds * 1000 * leaseTimeoutFactor));
  }

  /**
   * True when one more host may be quarantined: the fleet has more than one host and the
   * quarantined ones stay within the cap (at least one host).
   */
  public boolean mayQuarantine(int knownHosts, int quarantinedNow) {
    int cap = Math.max(1, (int) Math.floor(quarantineCap * knownHosts));
    return knownHosts > 1 && quarantinedNow < cap;
  }
}
