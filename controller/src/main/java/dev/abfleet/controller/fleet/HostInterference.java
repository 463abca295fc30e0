package dev.abfleet.controller.fleet;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which of each host's newest boots its worker marked interfered (the host busy with other
 * processes during the boot's window), to flag a host that is often not quiet. A flag, not a
 * quarantine: the quiet-host policy already re-runs or labels each interfered boot, and a busy
 * neighbour is the operator's to move. Owned by the scheduler actor and kept in memory only (one
 * bit per boot, no journal write per report): a controller restart or a scheduler failover
 * starts every host's window again.
 */
public final class HostInterference {
  /**
   * @param window newest boots per host the flag looks at
   * @param noisyAt interfered boots among them that flag the host
   */
  public record Rule(int window, int noisyAt) {
    public Rule {
      if (window < 1 || window > 63 || noisyAt < 1 || noisyAt > window) {
        throw new IllegalArgumentException("interference rule " + noisyAt + " of " + window
            + ": need 1 <= noisyAt <= window <= 63");
      }
    }

    /** 3 of the newest 10 boots. */
    public static Rule defaults() {
      return new Rule(10, 3);
    }
  }

  /**
   * A host's newest boots as bits (bit 0 = newest; 1 = interfered).
   *
   * @param boots how many boots the window holds (at most the rule's window)
   * @param interfered how many of them were interfered
   */
  public record Window(int boots, int interfered) {
    public static final Window NONE = new Window(0, 0);
  }

  private final Rule rule;
  private final Map<String, long[]> bits = new HashMap<>();

  public HostInterference(Rule rule) {
    this.rule = rule;
  }

  public Rule rule() {
    return rule;
  }

  /** One more boot of the host, interfered or not. */
  public void observed(String hostId, boolean interfered) {
    long[] w = bits.computeIfAbsent(hostId, k -> new long[2]);
    long mask = (1L << rule.window()) - 1;
    w[0] = ((w[0] << 1) | (interfered ? 1 : 0)) & mask;
    w[1] = Math.min(rule.window(), w[1] + 1);
  }

  /** The host's window; {@link Window#NONE} before its first boot. */
  public Window window(String hostId) {
    long[] w = bits.get(hostId);
    return w == null ? Window.NONE : new Window((int) w[1], Long.bitCount(w[0]));
  }

  /** Why the host is flagged noisy, or empty when it is not. */
  public Optional<String> noisy(String hostId) {
    Window w = window(hostId);
    return w.interfered() < rule.noisyAt() ? Optional.empty()
        : Optional.of(w.interfered() + " of its last " + w.boots() + " boots interfered (other processes"
            + " busy on the host during the boot; see the boots' host.pressure)");
  }

  /** The host starts over (an operator released it: the load was moved). */
  public void forget(String hostId) {
    bits.remove(hostId);
  }
}
