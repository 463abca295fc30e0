package dev.abfleet.controller.bisect;

/** What one probe found about the probed artifact, against the last known-good one. */
public enum Outcome {
  /** Not regressed: the interval rules out a regression beyond the noise threshold. */
  GOOD,
  /** Regressed beyond the noise threshold (significant, direction applied). */
  BAD,
  /** Neither could be shown within the pair budget. */
  INCONCLUSIVE
}
