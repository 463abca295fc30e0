package dev.abfleet.controller.experiment;

/**
 * The CPU a node spends on running experiments' interim verdicts, shared by all its experiment
 * entities. Each entity already waits twenty times its last computation between two (see
 * {@link ExperimentEntity#ASSESS_EVERY}), but a hundred running experiments, each watched, would
 * still take several cores together: the time spent is a debt that drains at {@code share} cores,
 * and a running experiment recomputes only while the node owes nothing. Its view then shows the
 * last verdicts a little longer; a finished experiment's verdicts are computed whatever the debt.
 * Thread-safe (entities run on several dispatcher threads).
 */
final class AssessBudget {
  /** A tenth of the node's cores (at least a tenth of one). */
  static final AssessBudget NODE = new AssessBudget(Math.max(1, Runtime.getRuntime().availableProcessors()) * 0.1);

  private final double share;
  private long debtNanos;
  private long at;
  private boolean started;

  /** @param share cores the debt drains at (0 < share) */
  AssessBudget(double share) {
    if (!(share > 0)) {
      throw new IllegalArgumentException("assess share " + share + ": need > 0 cores");
    }
    this.share = share;
  }

  /** True when nothing is owed at {@code nowNanos}: a running experiment may recompute. */
  synchronized boolean available(long nowNanos) {
    drain(nowNanos);
    return debtNanos == 0;
  }

  /** A computation took {@code nanos} of CPU, ending at {@code nowNanos}. */
  synchronized void spent(long nanos, long nowNanos) {
    drain(nowNanos);
    debtNanos += Math.max(0, nanos);
  }

  private void drain(long nowNanos) {
    if (!started) {
      started = true;
      at = nowNanos;
    }
    long elapsed = nowNanos - at;
    if (elapsed > 0) {
      debtNanos = Math.max(0, debtNanos - (long) (elapsed * share));
      at = nowNanos;
    }
  }
}
