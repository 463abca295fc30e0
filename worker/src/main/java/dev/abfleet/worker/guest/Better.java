package dev.abfleet.worker.guest;

import java.util.Locale;
import java.util.Optional;

/** Which direction of a metric is better, as the guest protocol spells it ("higher", "lower"). */
public enum Better {
  HIGHER,
  LOWER;

  /** The protocol spelling of {@code s}, or empty for anything else (case-sensitive). */
  public static Optional<Better> fromWire(String s) {
    for (Better b : values()) {
      if (b.wire().equals(s)) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  /** "higher" or "lower". */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
