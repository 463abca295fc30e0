package dev.abfleet.controller.bisect;

/** Which end of the range a probe resembles ({@link ProbeRule}). */
public enum Outcome {
  /** Like the good endpoint: the interval rules out the stated fraction of the endpoints' regression. */
  GOOD,
  /** Like the bad endpoint: the interval rules out no change, on the worse side. */
  BAD,
  /** Neither could be shown within the pair budget. */
  INCONCLUSIVE
}
