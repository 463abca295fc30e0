package dev.abfleet.cli.analyze.samples;

/**
 * One input line: an iteration of a metric in a boot, or (status not ok) a failed boot.
 *
 * @param host null when not given
 * @param pair null when not given
 * @param metric null for a failed-boot line
 * @param better "higher", "lower" or null when not given
 * @param warmup true for a warm-up iteration, dropped before the boot's median
 * @param failed true when status is present and not "ok"
 * @param order position of the line among all lines read (boot order within a pair)
 * @param where "file:line", for messages
 * @param hostClass the boot's host class (optional {@code host_class} field, e.g. "qemu/kvm");
 *     null when not given
 * @param iteration the iteration's number within its boot (optional {@code iteration} field);
 *     null when not given
 */
public record Sample(
    String experiment,
    String arm,
    String host,
    Integer pair,
    String boot,
    String metric,
    double value,
    String unit,
    String better,
    boolean warmup,
    boolean failed,
    long order,
    String where,
    String hostClass,
    Integer iteration) {

  /** A sample without host class. */
  Sample(String experiment, String arm, String host, Integer pair, String boot, String metric,
      double value, String unit, String better, boolean warmup, boolean failed, long order,
      String where) {
    this(experiment, arm, host, pair, boot, metric, value, unit, better, warmup, failed, order,
        where, null, null);
  }

  /** A sample without iteration number. */
  Sample(String experiment, String arm, String host, Integer pair, String boot, String metric,
      double value, String unit, String better, boolean warmup, boolean failed, long order,
      String where, String hostClass) {
    this(experiment, arm, host, pair, boot, metric, value, unit, better, warmup, failed, order,
        where, hostClass, null);
  }
}
