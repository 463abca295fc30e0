package dev.abfleet.stats;

import java.util.List;

/**
 * What a {@link SequentialPlan} says at one look.
 *
 * @param look the look judged, 0-based index into the plan's looks
 * @param stop true when every gating metric (every metric, when none gates) has a verdict
 *     other than inconclusive (improved, regressed, no_change or holds), or one of them regressed (the experiment's outcome is known),
 *     or this is the last look: collect no more pairs
 * @param comparisons one per input metric, in input order; a metric decided at an earlier
 *     look keeps the comparison of that look
 * @param decidedAt per metric, the look at which it got a verdict other than inconclusive, or
 *     -1 while it is undecided
 */
public record Decision(int look, boolean stop, List<Comparison> comparisons,
    List<Integer> decidedAt) {

  /** True when metric i (input order) is decided. */
  public boolean decided(int i) {
    return decidedAt.get(i) >= 0;
  }
}
