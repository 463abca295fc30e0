package dev.abfleet.report;

import java.util.List;

/**
 * The rule that set the experiment's boot timeouts and the limit it gives each arm now.
 *
 * @param adaptive false = the policy's fixed boot_timeout_s
 * @param arms per arm, in spec order: the limit by the boots recorded so far (what the arm's next
 *     boot gets; the latest planned ones got it or less)
 */
public record BootTimeout(boolean adaptive, List<Arm> arms) {

  /**
   * One arm's limit.
   *
   * @param seconds the limit in seconds
   * @param why how an adaptive limit was reached ("benchmark estimate", "3 x median 104 s of 6
   *     boots"); empty for a fixed one
   */
  public record Arm(String arm, int seconds, String why) {}

  public BootTimeout {
    arms = List.copyOf(arms);
  }

  public String rule() {
    return adaptive ? "adaptive" : "fixed";
  }

  /** The largest limit of any arm. */
  public int lastS() {
    return arms.stream().mapToInt(Arm::seconds).max().orElse(0);
  }

  /**
   * "boot timeout: fixed 150 s"; "boot timeout: adaptive, last 312 s (3 x median 104 s of 6
   * boots)", one such per arm when the arms' limits differ.
   */
  public String line() {
    if (!adaptive) {
      return "boot timeout: fixed " + lastS() + " s";
    }
    if (arms.stream().map(a -> a.seconds() + a.why()).distinct().count() <= 1) {
      return "boot timeout: adaptive, last " + lastS() + " s"
          + (arms.isEmpty() ? "" : " (" + arms.get(0).why() + ")");
    }
    return "boot timeout: adaptive, last " + String.join(", ", arms.stream()
        .map(a -> a.arm() + " " + a.seconds() + " s (" + a.why() + ")").toList());
  }
}
