package dev.abfleet.stats;

/** Machine-readable reasons attached to an {@link Verdict#INCONCLUSIVE} comparison. */
public final class Reasons {
  /** Too few values for an interval at the required level, or the interval is wider than 2Δ. */
  public static final String UNDERPOWERED = "underpowered";
  /** Values were dropped because a boot failed. */
  public static final String BOOT_FAILURES = "boot_failures";
  /** The paired differences trend over the pair index (Kendall's tau significant at alpha). */
  public static final String DRIFT = "drift";
  /** Pairs run baseline-first and candidate-first differ (Mann-Whitney at alpha). */
  public static final String ORDER_EFFECT = "order_effect";
  /** The paired differences differ between hosts (Kruskal-Wallis at alpha). */
  public static final String HOST_HETEROGENEITY = "host_heterogeneity";
  /** The boot values of an arm, or the pair differences, fall into two separated groups. */
  public static final String BIMODAL = "bimodal";
  /**
   * A pooled row of a cross-host comparison whose host classes reached different verdicts: no
   * pooled verdict is given ({@link HostClasses}).
   */
  public static final String CLASS_HETEROGENEITY = "class_heterogeneity";
  /** The interval is narrow enough but straddles the noise threshold Δ. */
  public static final String NEAR_THRESHOLD = "near_threshold";

  private Reasons() {}
}
