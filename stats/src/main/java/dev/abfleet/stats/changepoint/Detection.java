package dev.abfleet.stats.changepoint;

import java.util.List;

/**
 * What {@link ChangePoints#detect} found.
 *
 * @param points change points in ascending index order; empty when none is significant
 * @param warnings notes on the input: dropped non-finite values, a series too short to test
 */
public record Detection(List<ChangePoint> points, List<String> warnings) {
  public Detection {
    points = List.copyOf(points);
    warnings = List.copyOf(warnings);
  }

  /** True when a change point starts at {@code index}. */
  public boolean flagged(int index) {
    return points.stream().anyMatch(p -> p.index() == index);
  }
}
