package dev.abfleet.stats;

/**
 * Boot failures of a candidate against the baseline.
 *
 * @param pValue Fisher's exact one-sided p in the direction the candidate moved (1 when
 *     neither arm failed); NaN for impossible counts
 * @param verdict regressed: the candidate fails to boot significantly more often
 * @param note empty, or why the verdict is inconclusive
 */
public record BootFailureComparison(
    int baselineFailed,
    int baselineBoots,
    int candidateFailed,
    int candidateBoots,
    double pValue,
    Verdict verdict,
    String note) {}
