package dev.abfleet.controller.fleet;

/**
 * Lease fencing, in one place. Every lease of a host gets an epoch strictly above all earlier
 * ones of that host (across restarts too: the last epoch is persisted), and everything done under
 * a lease carries its epoch. So a worker, a session or a message that outlived its lease is
 * recognised by its epoch alone:
 *
 * <ul>
 *   <li>the scheduler acts on a command (release, block done, stop) only for the lease in force
 *       ({@link #inForce}, through {@link LeaseBook#isCurrent});
 *   <li>a host session forwards a worker's report only under the epoch of the block it assigned
 *       (grpc ReportCheck, {@link #admits});
 *   <li>the experiment records a boot only for the block in flight under the same epoch
 *       (experiment Decisions, {@link #admits}), and counts each run id once.
 * </ul>
 */
public final class Fence {
  private Fence() {}

  /** The epoch a host's next lease gets, given the last one handed out (null = none yet). */
  public static long next(Long last) {
    return (last == null ? 0L : last) + 1;
  }

  /** True when {@code epoch} is the epoch of {@code lease}, the lease in force (null = none). */
  public static boolean inForce(Lease lease, long epoch) {
    return lease != null && lease.epoch() == epoch;
  }

  /** True when something carrying {@code epoch} belongs to the block issued under {@code blockEpoch}. */
  public static boolean admits(long blockEpoch, long epoch) {
    return blockEpoch == epoch;
  }

  /** Refuses a lease whose epoch does not rise above the last one handed out for its host. */
  public static void checkRises(Lease lease, Long last) {
    if (lease.epoch() < next(last)) {
      throw new IllegalStateException(
          "epoch " + lease.epoch() + " of host " + lease.hostId() + " does not increase");
    }
  }
}
