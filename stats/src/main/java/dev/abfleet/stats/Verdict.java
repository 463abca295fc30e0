package dev.abfleet.stats;

/** Direction-aware outcome of one comparison. */
public enum Verdict {
  IMPROVED,
  REGRESSED,
  NO_CHANGE,
  INCONCLUSIVE;

  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
