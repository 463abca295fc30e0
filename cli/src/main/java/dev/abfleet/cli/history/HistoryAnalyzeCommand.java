package dev.abfleet.cli.history;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.stats.changepoint.Settings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet history analyze FILE}: change points of a series from a file, without a controller. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Find the change points of a series read from FILE, offline: the detection the controller runs",
      "on its schedules' series (same rank scan, permutation test and seed), the same text and JSON.",
      "FILE is CSV (one number per line, or a header naming value and optionally date and label) or",
      "JSONL ({\"value\": 812.5, \"date\": \"2026-03-10\", \"label\": \"abc123\"} per line); an empty",
      "value or null is a gap. Runs are numbered from 1, as in abfleet history and on the dashboard."
    })
final class HistoryAnalyzeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "The series: .csv or .jsonl.")
  Path file;

  @Option(names = "--name", defaultValue = "series", paramLabel = "NAME", description = "What the values are, for the output (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--unit", defaultValue = "", paramLabel = "UNIT", description = "The values' unit, for the output (e.g. ops/s).")
  String unit;

  @Mixin DetectionOptions detection;

  @Override
  public Integer call() {
    detection.check();
    return print(System.out);
  }

  int print(PrintStream out) {
    SeriesFile series = SeriesFile.read(file);
    MetricHistory h = MetricHistory.offline(name, unit, series.points(), detection.settings());
    out.print(detection.format.equals("json") ? HistoryFormat.json(h) : HistoryFormat.text(h));
    out.flush();
    return ExitCodes.OK;
  }

  /** The detection options {@code history} and {@code history analyze} share. */
  static final class DetectionOptions {
    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--alpha", defaultValue = "0.01", paramLabel = "A", description = "Level of each split test (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--min-segment", defaultValue = "3", paramLabel = "N", description = "Fewest runs on each side of a change (default: ${DEFAULT-VALUE}).")
    int minSegment;

    @Option(names = "--min-change", paramLabel = "X",
        description = "Smallest change flagged (0.05 or 5%%), judged on the medians of the segments either side of a"
            + " change: relative for values, percentage points for history --series change (default: the"
            + " schedule's min_change from fleet.yaml, else any significant shift).")
    String minChange;

    void check() {
      if (!format.equals("text") && !format.equals("json")) {
        throw new Problem("--format " + format + ": expected text or json");
      }
      if (!(alpha > 0 && alpha < 0.5)) {
        throw new Problem("--alpha " + alpha + ": expected a level between 0 and 0.5, e.g. 0.01");
      }
      if (minSegment < 2 || minSegment > 100) {
        throw new Problem("--min-segment " + minSegment + ": expected 2 to 100");
      }
      minChange();
    }

    /** The --min-change value as a fraction; 0 = not given. */
    double minChange() {
      if (minChange == null) {
        return 0;
      }
      String s = minChange.strip();
      boolean percent = s.endsWith("%");
      try {
        double v = Double.parseDouble(percent ? s.substring(0, s.length() - 1) : s) / (percent ? 100 : 1);
        if (v > 0 && v < 1) {
          return v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new Problem("--min-change " + minChange + ": expected a relative change above 0 and below 1, e.g. 0.05 or 5%");
    }

    Settings settings() {
      return new Settings(alpha, minSegment, 999, minChange());
    }
  }
}
