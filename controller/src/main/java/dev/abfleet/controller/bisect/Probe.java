package dev.abfleet.controller.bisect;

/** Compares two artifacts of the ordered list (by index) on the bisected metric. */
@FunctionalInterface
public interface Probe {
  /**
   * @param good index of the baseline: the good endpoint, 0
   * @param candidate index of the artifact to judge (greater than good)
   */
  ProbeResult compare(int good, int candidate);
}
