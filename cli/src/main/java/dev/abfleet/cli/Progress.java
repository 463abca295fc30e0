package dev.abfleet.cli;

import dev.abfleet.controller.report.ExperimentFacts;
import dev.abfleet.proto.fleet.v1.Boot;
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
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * What an experiment is doing while it runs, on stderr: one line per finished boot, and a status
 * line with the pairs done of the total, the current look of a sequential design, each gating
 * metric's running estimate with its interval, and the controller's ETA (from the measured
 * durations of this experiment's blocks) -- or, while it waits for a host, its place in line.
 * On a terminal the status line is redrawn in place, fitted to one row of the terminal (a
 * wrapped line could not be cleared and would leave stale copies in the scrollback); otherwise
 * it is printed whole whenever it changes (a log file gets one line per pair, not one per poll).
 */
public final class Progress {
  private static final String CLEAR_LINE = "\r\033[K";
  /** An estimate's interval in the status line, " [+1.0%, +3.0%]". */
  private static final Pattern INTERVAL = Pattern.compile(" \\[[^\\]]*\\]");

  private final PrintStream err;
  private final boolean terminal;
  private final IntSupplier columns;
  private final Set<String> seen = new HashSet<>();
  private String lastStatus = "";

  /** Progress on {@code err}, drawn in place when {@code err} is this process's terminal. */
  public Progress(PrintStream err) {
    this(err, err == System.err && stderrIsTerminal());
  }

  /** @param terminal redraw the status line in place (ANSI) instead of printing lines */
  public Progress(PrintStream err, boolean terminal) {
    this(err, terminal, TerminalWidth::columns);
  }

  /** @param columns the terminal's width, asked before each redraw (it can be resized) */
  Progress(PrintStream err, boolean terminal, IntSupplier columns) {
    this.err = err;
    this.terminal = terminal;
    this.columns = columns;
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
          err.print(fit(status, columns.getAsInt()));
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

  /** Clears a status line being redrawn in place, so that other output starts on a clean row. */
  public void clear() {
    if (terminal && !lastStatus.isEmpty()) {
      err.print(CLEAR_LINE);
      err.flush();
    }
  }

  /**
   * "  status: pairs 6/20, look 1 of 3 at 10 pairs, ETA 2m 10s; metadata_stat +58.1% [+50.2%,
   * +66.0%] improved", or "  status: queued, 2nd in line for a host" while it waits.
   */
  static String status(Experiment e) {
    StringBuilder sb = new StringBuilder("  status: ");
    if (ExperimentFacts.queued(e)) {
      sb.append("queued, ").append(ExperimentFacts.ordinal(e.getQueuePosition())).append(" in line for a host; ");
    }
    sb.append("pairs ").append(e.getPairsDone()).append('/').append(e.getPairsWanted());
    String look = ExperimentFacts.look(e);
    if (!look.isEmpty()) {
      sb.append(", ").append(look);
    }
    if (!ExperimentFacts.running(e)) {
      sb.append(", ").append(e.getState());
    } else if (!ExperimentFacts.eta(e).isEmpty()) {
      sb.append(", ETA ").append(ExperimentFacts.eta(e));
    }
    boolean withArm = e.getSpec().getArmsCount() > 2;
    List<ExperimentFacts.Estimate> all = ExperimentFacts.estimates(e);
    boolean withClass = all.stream().anyMatch(x -> !x.hostClass().isEmpty());
    List<String> estimates = all.stream().map(x -> x.text(withArm, withClass)).toList();
    if (!estimates.isEmpty()) {
      sb.append("; ").append(String.join("; ", estimates));
    }
    return sb.toString();
  }

  /**
   * The status in fewer than {@code width} characters (the cursor needs the last column): whole
   * when it fits, else without the intervals, else cut, ending in "...".
   */
  static String fit(String status, int width) {
    int room = Math.max(20, width - 1);
    if (status.length() <= room) {
      return status;
    }
    String compact = INTERVAL.matcher(status).replaceAll("");
    return compact.length() <= room ? compact : compact.substring(0, room - 3) + "...";
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
