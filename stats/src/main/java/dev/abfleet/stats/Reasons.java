package dev.abfleet.stats;

/** Machine-readable reasons attached to an {@link Verdict#INCONCLUSIVE} comparison. */
public final class Reasons {
  /** Too few pairs for an interval at the required level, or the interval is wider than 2Δ. */
  public static final String UNDERPOWERED = "underpowered";
  /** Pairs were dropped because a boot failed. */
  public static final String BOOT_FAILURES = "boot_failures";
  /** The paired differences trend over the pair index (Kendall's tau significant at alpha). */
  public static final String DRIFT = "drift";
  /** The interval is narrow enough but straddles the noise threshold Δ. */
  public static final String NEAR_THRESHOLD = "near_threshold";

  private Reasons() {}
}
