package dev.abfleet.stats;

import java.util.List;

/**
 * What the data of one metric say, independent of the level at which they are judged: the
 * engine computes it once and then asks for intervals at the level each look needs.
 * Estimates and intervals are on the log scale (ln candidate - ln baseline).
 */
sealed interface Evidence permits PairedEvidence, UnpairedEvidence, JointEvidence {
  boolean paired();

  int nBaseline();

  int nCandidate();

  /** Pairs used; 0 when unpaired. */
  int nPairs();

  double baselineCenter();

  double candidateCenter();

  /** Two-sided p-value of "no shift"; NaN when there is too little data. */
  double pValue();

  /** Hodges-Lehmann estimate of the log shift; NaN when there is too little data. */
  double logEstimate();

  /** Two-sided interval at level 1 - alpha for the log shift; null when none exists. */
  double[] logInterval(double alpha);

  /** The warning to give when {@link #logInterval} is null at this alpha. */
  String noIntervalWarning(double alpha);

  /** Diagnostic reasons found in the data ({@link Reasons}), in a stable order. */
  List<String> flags();

  /** Hosts whose own estimates lie beyond the noise threshold on opposite sides. */
  boolean hostsDisagree();

  /** Notes on dropped values and diagnostics. */
  List<String> warnings();
}
