package dev.abfleet.stats;

/** Direction-aware outcome of one comparison. */
public enum Verdict {
  IMPROVED,
  REGRESSED,
  /** Equivalence: the interval lies inside ±threshold. */
  NO_CHANGE,
  /**
   * Non-inferiority: neither of the above, but the interval's worse end (direction applied) is
   * within -threshold, so a change worse than the threshold is ruled out. The worse end of the
   * two-sided 1 - a interval is a one-sided test at a/2 (see {@link Verdicts#decide}).
   */
  HOLDS,
  INCONCLUSIVE;

  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** True for the verdicts a gate accepts: improved, no change, holds. */
  public boolean passes() {
    return this == IMPROVED || this == NO_CHANGE || this == HOLDS;
  }
}
