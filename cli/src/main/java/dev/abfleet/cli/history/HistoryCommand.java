package dev.abfleet.cli.history;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.stats.changepoint.Settings;
import dev.abfleet.worker.WorkerSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet history METRIC}: a schedule's nightly series with its change points. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = {
      "Print a metric's series over a schedule's runs ($ABFLEET_HOME/history/<schedule>.jsonl) and",
      "flag sustained shifts (change points: rank scan over every split, permutation p-value,",
      "segments of at least 3 runs, so a single spike is not flagged)."
    })
public final class HistoryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "METRIC", description = "Metric, e.g. metadata_stat.")
  String metric;

  @Option(names = "--schedule", paramLabel = "NAME",
      description = "Schedule (default: the only one with a history).")
  String schedule;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--series", defaultValue = "center", paramLabel = "S",
      description = "center (candidate's median per run) or change (vs that run's baseline); default: ${DEFAULT-VALUE}.")
  String series;

  @Option(names = "--alpha", defaultValue = "0.01", paramLabel = "A", description = "Level of each split test (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--min-segment", defaultValue = "3", paramLabel = "N", description = "Fewest runs on each side of a change (default: ${DEFAULT-VALUE}).")
  int minSegment;

  @Override
  public Integer call() throws IOException {
    return print(WorkerSettings.defaultHome(), System.out, System.err);
  }

  int print(Path home, PrintStream out, PrintStream err) throws IOException {
    if (!format.equals("text") && !format.equals("json")) {
      throw new Problem("--format " + format + ": expected text or json");
    }
    if (!series.equals("center") && !series.equals("change")) {
      throw new Problem("--series " + series + ": expected center or change");
    }
    if (!(alpha > 0 && alpha < 0.5)) {
      throw new Problem("--alpha " + alpha + ": expected a level between 0 and 0.5, e.g. 0.01");
    }
    if (minSegment < 2 || minSegment > 100) {
      throw new Problem("--min-segment " + minSegment + ": expected 2 to 100");
    }
    String name = schedule != null ? schedule : onlySchedule(home);
    HistoryFile file = HistoryFile.of(home, name);
    if (!Files.exists(file.path())) {
      throw new Problem("no history for schedule '" + name + "' (" + file.path() + "); has abfleet nightly run it?");
    }
    HistoryFile.Contents c = file.read();
    c.problems().forEach(p -> err.println("abfleet: warning: " + file.path() + ":" + p.line() + ": " + p.message()));
    if (c.entries().stream().noneMatch(e -> e.metric(metric).isPresent())) {
      throw new Problem("no run of schedule '" + name + "' measured " + metric + "; measured: "
          + String.join(", ", c.entries().stream().flatMap(e -> e.metrics().stream())
              .map(HistoryEntry.Metric::metric).distinct().toList()));
    }
    MetricHistory h = MetricHistory.of(name, metric, series, c.entries(), new Settings(alpha, minSegment, 999, 0));
    out.print(format.equals("json") ? HistoryFormat.json(h) : HistoryFormat.text(h));
    out.flush();
    return ExitCodes.OK;
  }

  private static String onlySchedule(Path home) throws IOException {
    Path dir = home.resolve("history");
    List<String> names;
    if (!Files.isDirectory(dir)) {
      names = List.of();
    } else {
      try (Stream<Path> files = Files.list(dir)) {
        names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl"))
            .map(n -> n.substring(0, n.length() - ".jsonl".length())).sorted().toList();
      }
    }
    if (names.size() == 1) {
      return names.get(0);
    }
    throw new Problem(names.isEmpty() ? "no schedule has a history under " + dir + " yet; run abfleet nightly first"
        : "several schedules have a history (" + String.join(", ", names) + "); pick one with --schedule NAME");
  }
}
