package dev.abfleet.worker.sim;

import java.util.List;

/**
 * One simulated boot, decided before it "runs": every line the guest writes and when, in
 * simulated milliseconds since the VM started. A timeout cuts the plan at the timeout.
 *
 * @param results lines of the results channel (guest protocol), in time order
 * @param console lines of the console, in time order
 * @param exitMs when the VM exits (powers off) on its own
 * @param panicked the boot fails before the harness starts
 */
record SimBootPlan(List<TimedLine> results, List<TimedLine> console, long exitMs, boolean panicked) {

  record TimedLine(long atMs, String text) {}

  SimBootPlan {
    results = List.copyOf(results);
    console = List.copyOf(console);
  }

  /** The lines written by {@code endMs}, one per line. */
  static String textUntil(List<TimedLine> lines, long endMs) {
    StringBuilder b = new StringBuilder();
    for (TimedLine l : lines) {
      if (l.atMs() <= endMs) {
        b.append(l.text()).append('\n');
      }
    }
    return b.toString();
  }
}
