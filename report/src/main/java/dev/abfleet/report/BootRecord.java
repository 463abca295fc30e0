package dev.abfleet.report;

import dev.abfleet.stats.verdict.VerdictBoot;

import dev.abfleet.stats.verdict.BootSample;


import java.util.List;

/**
 * One boot, as every report path sees it: the experiment entity's recorded runs and the lines
 * of an {@code analyze} input become the same records, so one builder (stats' verdict Assessor) turns
 * both into verdicts.
 *
 * @param id run id (fleet) or boot id (analyze input)
 * @param host host that booted it; null = unknown (then the boots cannot be paired)
 * @param pair pair (block) index; null = unknown (then the boots cannot be paired)
 * @param order position in boot order: within a pair, lower booted first
 * @param status "ok", or why the boot produced no values ("boot_failed", "timeout",
 *     "harness_failed", or any other status an input names)
 * @param hostClass host class of the boot's pair, e.g. "qemu/kvm"; null = none recorded
 * @param accelerator the accelerator that ran the boot; empty = unknown. Pairs whose boots ran
 *     on different accelerators are never compared
 * @param warmupBoot a warm-up boot: listed, never part of a pair or a verdict
 * @param samples every iteration value, warm-up iterations included
 * @param run fleet facts of the boot; null for boots recorded elsewhere
 */
public record BootRecord(
    String id,
    String arm,
    String host,
    Integer pair,
    long order,
    String status,
    String hostClass,
    String accelerator,
    boolean warmupBoot,
    List<BootSample> samples,
    RunFacts run) implements VerdictBoot {

  public static final String OK = "ok";

  public BootRecord {
    status = status == null || status.isEmpty() ? OK : status;
    accelerator = accelerator == null ? "" : accelerator;
    samples = samples == null ? List.of() : List.copyOf(samples);
  }

  /** The order of a fleet's boot: pairs by index, a pair's warm-up boot first, then its boots. */
  public static long fleetOrder(int pair, int orderInPair, boolean warmupBoot) {
    return (long) pair * 1_000 + (warmupBoot ? 0 : 1 + orderInPair);
  }

  @Override
  public boolean failed() {
    return !OK.equals(status);
  }

  /** Kept for the record of a block re-run for interference: never part of a pair or a verdict. */
  @Override
  public boolean rerun() {
    return run != null && run.rerun();
  }

  /** The same boot in another host class. */
  public BootRecord withHostClass(String cls) {
    return new BootRecord(id, arm, host, pair, order, status, cls, accelerator, warmupBoot, samples,
        run);
  }
}
