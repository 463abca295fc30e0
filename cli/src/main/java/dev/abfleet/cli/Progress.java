package dev.abfleet.cli;

import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.report.Numbers;
import dev.abfleet.stats.VerdictEngine;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What an experiment is doing while it runs, on stderr: one line per finished boot, and a status
 * line with the pairs done of the total, the current look of a sequential design, each gating
 * metric's running estimate with its interval, and the controller's ETA (from the measured
 * durations of this experiment's blocks) -- or, while it waits for a host, its place in line.
 * On a terminal the status line is redrawn in place; otherwise it is printed as a plain line
 * whenever it changes (a log file gets one line per pair, not one per poll).
 */
public final class Progress {
  private static final String CLEAR_LINE = "\r\033[K";

  private final PrintStream err;
  private final boolean terminal;
  private final Set<String> seen = new HashSet<>();
  private String lastStatus = "";

  /** Progress on {@code err}, drawn in place when {@code err} is this process's terminal. */
  public Progress(PrintStream err) {
    this(err, err == System.err && stderrIsTerminal());
  }

  /** @param terminal redraw the status line in place (ANSI) instead of printing lines */
  public Progress(PrintStream err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  public void onChange(Experiment e) {
    List<String> boots = new ArrayList<>();
    for (Boot b : e.getBootsList()) {
      if (seen.add(b.getRunId())) {
        boots.add(line(e, b));
      }
    }
    String status = status(e);
    boolean changed = !status.equals(lastStatus);
    if (terminal) {
      if (!boots.isEmpty() || changed) {
        err.print(CLEAR_LINE);
        boots.forEach(err::println);
        // A finished experiment leaves its last status as a line of its own.
        if (e.getState().equals("running")) {
          err.print(status);
        } else {
          err.println(status);
        }
        err.flush();
      }
    } else {
      boots.forEach(err::println);
      if (changed) {
        err.println(status);
      }
    }
    lastStatus = status;
  }

  /**
   * "  status: pairs 6/20, look 1 of 3 at 10 pairs, ETA 2m 10s; metadata_stat +58.1% [+50.2%,
   * +66.0%] improved", or "  status: queued, 2nd in line for a host" while it waits.
   */
  static String status(Experiment e) {
    StringBuilder sb = new StringBuilder("  status: ");
    boolean running = e.getState().equals("running");
    if (running && e.getQueuePosition() > 0) {
      sb.append("queued, ").append(ordinal(e.getQueuePosition())).append(" in line for a host; ");
    }
    sb.append("pairs ").append(e.getPairsDone()).append('/').append(e.getPairsWanted());
    List<Integer> looks = e.getSpec().getPolicy().getLooksList();
    if (looks.size() > 1) {
      int k = 0;
      while (k < looks.size() - 1 && looks.get(k) <= e.getPairsDone()) {
        k++;
      }
      sb.append(", look ").append(k + 1).append(" of ").append(looks.size()).append(" at ")
          .append(looks.get(k)).append(" pairs");
    }
    if (!running) {
      sb.append(", ").append(e.getState());
    } else if (e.getEtaSeconds() > 0) {
      sb.append(", ETA ").append(duration(e.getEtaSeconds()));
    } else if (e.getQueuePosition() == 0) {
      sb.append(", ETA after the first block");
    }
    List<String> estimates = new ArrayList<>();
    for (Comparison c : e.getComparisonsList()) {
      if (c.getGating() && c.getNPairs() > 0 && Double.isFinite(c.getChange())) {
        estimates.add(c.getMetric() + (e.getSpec().getArmsCount() > 2 ? " (" + c.getArm() + ")" : "")
            + " " + percent(c.getChange())
            + (Double.isFinite(c.getCiLow()) && Double.isFinite(c.getCiHigh())
                ? " [" + percent(c.getCiLow()) + ", " + percent(c.getCiHigh()) + "]" : "")
            + (c.getVerdict().isEmpty() ? "" : " " + c.getVerdict()));
      }
    }
    if (!estimates.isEmpty()) {
      sb.append("; ").append(String.join("; ", estimates));
    }
    return sb.toString();
  }

  static String line(Experiment e, Boot b) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "  pair %d.%d  %-10s %-12s %s/%s  boot %.1fs run %.1fs",
        b.getPairIndex(), b.getOrderInPair(), b.getArm(), b.getHostId(),
        b.getTelemetry().getHypervisor(), b.getTelemetry().getAccelerator(),
        b.getTelemetry().getBootMs() / 1000.0, b.getTelemetry().getRunMs() / 1000.0));
    if (!b.getStatus().equals("ok")) {
      sb.append("  ").append(b.getStatus().toUpperCase(Locale.ROOT)).append(": ").append(b.getMessage());
      return sb.toString();
    }
    Map<String, List<Double>> values = new LinkedHashMap<>();
    for (MetricSample s : b.getSamplesList()) {
      if (!s.getWarmup()) {
        values.computeIfAbsent(s.getMetric(), k -> new ArrayList<>()).add(s.getValue());
      }
    }
    values.forEach((metric, v) -> sb.append("  ").append(metric).append(' ').append(
        Numbers.value(VerdictEngine.median(v.stream().mapToDouble(Double::doubleValue).toArray()))));
    return sb.toString();
  }

  /** "45s", "2m 10s", "1h 05m". */
  static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%dh %02dm", seconds / 3600, seconds % 3600 / 60);
  }

  private static String percent(double r) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * r);
  }

  private static String ordinal(int n) {
    String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th"
        : switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + suffix;
  }

  /**
   * Whether this process's stderr is a terminal: on Linux, where file descriptor 2 points; else
   * whether the process has a console at all (stdin and stdout on a terminal).
   */
  static boolean stderrIsTerminal() {
    if (System.getenv("TERM") != null && System.getenv("TERM").equals("dumb")) {
      return false;
    }
    Path fd2 = Path.of("/proc/self/fd/2");
    try {
      if (Files.isSymbolicLink(fd2)) {
        String target = Files.readSymbolicLink(fd2).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      }
    } catch (java.io.IOException | SecurityException e) {
      // Not Linux, or not allowed to look: fall back on the console.
    }
    return System.console() != null;
  }
}
