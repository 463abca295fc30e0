package dev.abfleet.model;

import dev.abfleet.model.Cron;

import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A schedule as the controller runs it (from fleet.yaml's {@code schedules:}).
 *
 * @param name names the schedule's runs and their experiment ids
 * @param cron when it fires, wall-clock time in {@code zone}
 * @param zone the cron's time zone (fleet.yaml has none: the controller's system zone)
 * @param candidate tonight's kernel: {@code path} (a file) or {@code newest_in} (a directory)
 * @param baseline what the candidate is compared with; for an A/A schedule the candidate itself
 * @param aa an A/A schedule: one kernel booted as both arms, to measure the fleet's noise
 * @param simulation the schedule runs on sim hosts: its verdicts come from a model, not boots
 * @param template the experiment every run submits, with arms "baseline" and "candidate" whose
 *     kernels are left empty (filled in per run)
 * @param line fleet.yaml line of the schedule, for messages; 0 = unknown
 * @param minChange the smallest change (relative: 0.05 = 5%) a change point of its series is
 *     flagged for (fleet.yaml {@code min_change}); 0 = any significant shift
 */
public record NightlySchedule(String name, Cron cron, ZoneId zone, Source candidate, Baseline baseline,
    boolean aa, boolean simulation, ExperimentSpec template, int line, double minChange) {

  /** A schedule without {@code min_change}. */
  public NightlySchedule(String name, Cron cron, ZoneId zone, Source candidate, Baseline baseline,
      boolean aa, boolean simulation, ExperimentSpec template, int line) {
    this(name, cron, zone, candidate, baseline, aa, simulation, template, line, 0);
  }

  public NightlySchedule {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cron, "cron");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(template, "template");
  }

  /**
   * Where the candidate comes from.
   *
   * @param kind "path" (a kernel image) or "newest_in" (the newest vmlinuz* or Image* of a directory)
   * @param location the file or directory; relative to fleet.yaml's directory
   */
  public record Source(String kind, String location) {}

  /**
   * Where the baseline comes from.
   *
   * @param kind "pinned" (always {@code path}), "last_accepted" (the candidate of the last accepted
   *     run; {@code path} until one is) or "same" (A/A: the candidate)
   * @param path a kernel image relative to fleet.yaml's directory; empty = none given
   */
  public record Baseline(String kind, String path) {
    /** The baseline of an A/A schedule. */
    public static final Baseline SAME_KERNEL = new Baseline("same", "");
  }

  /** Where the schedule is written, for messages: "schedule NAME (fleet.yaml:LINE)". */
  public String where() {
    return "schedule " + name + (line > 0 ? " (fleet.yaml:" + line + ")" : "");
  }
}
