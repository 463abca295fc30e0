package dev.abfleet.stats.verdict;

import java.util.List;

/**
 * One boot as the verdict sees it: which arm, where and when it ran, whether it produced values,
 * and its samples. Reports' boot records carry more (run facts, console findings) and implement
 * this.
 */
public interface VerdictBoot {
  String arm();

  /** Host that booted it; null = unknown (then the boots cannot be paired). */
  String host();

  /** Pair (block) index; null = unknown (then the boots cannot be paired). */
  Integer pair();

  /** Position in boot order: within a pair, lower booted first. */
  long order();

  /** The boot produced no values (it failed to boot, timed out or its harness failed). */
  boolean failed();

  /** Host class of the boot's pair, e.g. "qemu/kvm"; null = none recorded. */
  String hostClass();

  /** The accelerator that ran the boot; empty = unknown. */
  String accelerator();

  /** A warm-up boot: never part of a pair or a verdict. */
  boolean warmupBoot();

  /**
   * Kept for the record only: its pair ran again (the host was not quiet); never part of a pair
   * or a verdict. False by default.
   */
  default boolean rerun() {
    return false;
  }

  /** Every iteration value, warm-up iterations included. */
  List<BootSample> samples();
}
