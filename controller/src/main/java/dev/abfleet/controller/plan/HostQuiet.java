package dev.abfleet.controller.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Quiet-host policy (fleet.yaml {@code policy.host_quiet}): a measured boot waits, bounded, for a
 * quiet host, and a boot whose host was not quiet during its window (the worker marks it
 * interfered) is re-run with its pair or kept with a warning. Zero values take the defaults.
 * {@link #OFF} (an experiment whose policy sets none): no wait, no re-run; interfered boots are
 * pooled and the reports count them.
 *
 * @param cpuSomePct CPU "some" pressure in percent above which a host is not quiet; default 10
 * @param maxWaitS longest wait in seconds for a quiet host before a measured boot; default 60
 * @param onInterference what an interfered measured boot does; {@link #RERUN} (default) or {@link #KEEP},
 *     or {@link #OFF_VALUE} for no policy
 * @param maxRerunsPerPair re-runs for interference a pair may take; after that its interfered
 *     boots are kept with a warning; default 2
 */
public record HostQuiet(double cpuSomePct, int maxWaitS, String onInterference,
    int maxRerunsPerPair) {
  public static final double DEFAULT_CPU_SOME_PCT = 10;
  public static final int DEFAULT_MAX_WAIT_S = 60;
  public static final int DEFAULT_MAX_RERUNS_PER_PAIR = 2;
  public static final HostQuiet DEFAULTS = new HostQuiet(0, 0, null, 0);
  /** No quiet-host policy: on_interference "off". */
  public static final String OFF_VALUE = "off";
  /** No quiet-host policy: boots start at once and interfered boots are pooled and counted. */
  public static final HostQuiet OFF = new HostQuiet(0, 0, OFF_VALUE, 0);

  /** Interfered boots re-run their pair (kept for the record) while the pair has re-runs left. */
  public static final String RERUN = "rerun";
  /** Interfered boots are pooled like any boot and counted. */
  public static final String KEEP = "keep";

  /**
   * Jackson filter that leaves {@link #OFF} out of a journaled policy, so experiments without a
   * quiet-host policy write the bytes they wrote before the policy existed (and read back OFF).
   */
  public static final class OmitDefaults {
    @Override
    public boolean equals(Object value) {
      return value == null || OFF.equals(value);
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }

  public HostQuiet {
    cpuSomePct = cpuSomePct == 0 ? DEFAULT_CPU_SOME_PCT : cpuSomePct;
    maxWaitS = maxWaitS == 0 ? DEFAULT_MAX_WAIT_S : maxWaitS;
    onInterference = onInterference == null || onInterference.isBlank() ? RERUN
        : onInterference.trim().toLowerCase(Locale.ROOT);
    maxRerunsPerPair = maxRerunsPerPair == 0 ? DEFAULT_MAX_RERUNS_PER_PAIR : maxRerunsPerPair;
  }

  /** False for {@link #OFF}: no wait before boots, no re-run for interference. */
  public boolean on() {
    return !OFF_VALUE.equals(onInterference);
  }

  /** True when interfered boots re-run their pair (while the pair has re-runs left). */
  public boolean reruns() {
    return RERUN.equals(onInterference);
  }

  /** What is wrong with these values, each naming the key and the fix; empty = valid. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (!(cpuSomePct > 0 && cpuSomePct <= 100)) {
      problems.add("policy.host_quiet.cpu_some_pct: " + cpuSomePct
          + " must be a percent in (0, 100], e.g. 10");
    }
    if (!RERUN.equals(onInterference) && !KEEP.equals(onInterference) && on()) {
      problems.add("policy.host_quiet.on_interference: unknown value '" + onInterference
          + "'; expected rerun (re-run the pair) or keep (pool it with a warning)");
    }
    if (maxWaitS < 0 || maxWaitS > 3600) {
      problems.add("policy.host_quiet.max_wait_s: " + maxWaitS
          + " must be seconds in [1, 3600], e.g. 60");
    }
    if (maxRerunsPerPair < 0 || maxRerunsPerPair > 20) {
      problems.add("policy.host_quiet.max_reruns_per_pair: " + maxRerunsPerPair
          + " must be in [1, 20], e.g. 2");
    }
    return problems;
  }
}
