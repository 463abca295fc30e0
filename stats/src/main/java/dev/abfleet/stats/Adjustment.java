package dev.abfleet.stats;

/** How a comparison's p was adjusted for the other gating metrics ({@link Comparison#pAdjusted}). */
public enum Adjustment {
  /** Not gating: judged alone at alpha, p not adjusted. */
  NONE(""),
  /** Holm's step-down over the gating rows (metrics, or metrics x host classes). */
  HOLM("holm"),
  /**
   * Westfall-Young maxT over exact joint sign flips of whole pairs ({@link SmallFamily}): the
   * gating metrics of a small fixed design decided together.
   */
  MAXT("maxT");

  private final String wire;

  Adjustment(String wire) {
    this.wire = wire;
  }

  /** "holm", "maxT", or "" for none: the report's JSON value. */
  public String wire() {
    return wire;
  }

  /** The adjustment named {@code wire}; an unknown or empty name is {@link #NONE}. */
  public static Adjustment ofWire(String wire) {
    for (Adjustment a : values()) {
      if (a.wire.equals(wire)) {
        return a;
      }
    }
    return NONE;
  }
}
