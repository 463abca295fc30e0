package dev.abfleet.stats.verdict;

import dev.abfleet.stats.Comparison;

/**
 * One line of a verdict table: a compared arm's verdict on one metric (and host class).
 *
 * @param ofCeiling this arm's center as a fraction of the ceiling arm's (direction-aware), e.g.
 *     0.97; 0 = no ceiling arm, or this row is the ceiling's own
 */
public record Row(String arm, Comparison comparison, double ofCeiling) {}
