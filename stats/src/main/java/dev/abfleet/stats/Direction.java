package dev.abfleet.stats;

/** Which way a metric is better. */
public enum Direction {
  HIGHER,
  LOWER;

  /** Parses "higher" / "lower" (case-insensitive); anything else is an IllegalArgumentException. */
  public static Direction parse(String s) {
    return switch (s == null ? "" : s.toLowerCase(java.util.Locale.ROOT)) {
      case "higher" -> HIGHER;
      case "lower" -> LOWER;
      default -> throw new IllegalArgumentException(
          "unknown direction '" + s + "'; expected higher or lower");
    };
  }

  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
