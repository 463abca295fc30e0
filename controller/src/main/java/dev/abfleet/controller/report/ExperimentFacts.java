package dev.abfleet.controller.report;

import dev.abfleet.report.Numbers;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What is said about a running or finished experiment, by the dashboard (its HTML and JSON) and
 * by the CLI's progress line alike: the current look
 * of a sequential design, the ETA or place in line, each gating metric's running estimate, and
 * the overall verdict (the controller's, through the one report model).
 */
public final class ExperimentFacts {
  private ExperimentFacts() {}

  /**
   * One gating metric's running estimate; change and interval as fractions (0.05 = +5%), host
   * class empty for the pooled row.
   */
  public record Estimate(String metric, String arm, String hostClass, double change, double ciLow,
      double ciHigh, String verdict) {
    public String text(boolean withArm) {
      return text(withArm, false);
    }

    /** With the arm (several candidates) and the host class ("pooled" for the pooled row). */
    public String text(boolean withArm, boolean withClass) {
      List<String> of = new ArrayList<>();
      if (withArm) {
        of.add(arm);
      }
      if (withClass) {
        of.add(hostClass.isEmpty() ? "pooled" : hostClass);
      }
      return metric + (of.isEmpty() ? "" : " (" + String.join(", ", of) + ")") + " " + Numbers.percent(change)
          + (Double.isFinite(ciLow) && Double.isFinite(ciHigh)
              ? " [" + Numbers.percent(ciLow) + ", " + Numbers.percent(ciHigh) + "]" : "")
          + (verdict.isEmpty() ? "" : " " + verdict);
    }
  }

  public static boolean running(Experiment e) {
    return e.getState().equals("running");
  }

  public static boolean queued(Experiment e) {
    return running(e) && e.getQueuePosition() > 0;
  }

  /**
   * Where a sequential design stands: while it runs, the look it is heading for ("look 2 of 3
   * at 20 pairs"); once it ended, the last look it reached ("stopped at look 2 of 3, 16 pairs";
   * "before look 1 of 3" when it ended before the first). Empty for a fixed-size design.
   */
  public static String look(Experiment e) {
    List<Integer> looks = e.getSpec().getPolicy().getLooksList();
    if (looks.size() <= 1) {
      return "";
    }
    int reached = 0;
    while (reached < looks.size() && looks.get(reached) <= e.getPairsDone()) {
      reached++;
    }
    if (!running(e)) {
      return reached == 0 ? "ended before look 1 of " + looks.size()
          : "stopped at look " + reached + " of " + looks.size() + ", " + looks.get(reached - 1) + " pairs";
    }
    int next = Math.min(reached, looks.size() - 1);
    return "look " + (next + 1) + " of " + looks.size() + " at " + looks.get(next) + " pairs";
  }

  /** "2m 10s", "after the first block" or "" when it is not running. */
  public static String eta(Experiment e) {
    if (!running(e) || queued(e)) {
      return "";
    }
    return e.getEtaSeconds() > 0 ? duration(e.getEtaSeconds()) : "after the first block";
  }

  public static List<Estimate> estimates(Experiment e) {
    List<Estimate> out = new ArrayList<>();
    for (Comparison c : e.getComparisonsList()) {
      if (c.getGating() && c.getNPairs() > 0 && Double.isFinite(c.getChange())) {
        out.add(new Estimate(c.getMetric(), c.getArm(), c.getHostClass(), c.getChange(), c.getCiLow(),
            c.getCiHigh(), c.getVerdict()));
      }
    }
    return out;
  }

  /** The overall verdict word (improved, regressed, ...); empty while nothing is decided. */
  public static String overall(Experiment e) {
    return e.getOverall();
  }

  /** The overall verdict with its reasons, as the report's title gives it. */
  public static String overallLabel(Experiment e) {
    return ProtoReports.of(e).assessment().overallLabel();
  }

  /** "45s", "2m 10s", "1h 05m". */
  public static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m " + String.format(Locale.ROOT, "%02ds", seconds % 60);
    }
    return seconds / 3600 + "h " + String.format(Locale.ROOT, "%02dm", seconds % 3600 / 60);
  }


  public static String ordinal(int n) {
    String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th"
        : switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + suffix;
  }
}
