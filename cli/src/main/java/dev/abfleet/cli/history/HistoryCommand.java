package dev.abfleet.cli.history;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.nightly.NightlyClient;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.GetSeriesRequest;
import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet history METRIC}: a schedule's nightly series with its change points, from the controller. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    subcommands = {HistoryImportCommand.class, HistoryAnalyzeCommand.class},
    description = {
      "Print a metric's series over a schedule's runs, as the controller keeps them, and flag",
      "sustained shifts (change points: rank scan over every split, permutation p-value, segments",
      "of at least 3 runs, so a single spike is not flagged).",
      "Old $ABFLEET_HOME/history/<schedule>.jsonl files: abfleet history import --controller X.",
      "A series in a CSV or JSONL file, without a controller: abfleet history analyze FILE."
    })
public final class HistoryCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "METRIC", description = "Metric, e.g. metadata_stat.")
  String metric;

  @Option(names = "--controller", paramLabel = "HOST:PORT[,...]",
      description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--schedule", paramLabel = "NAME",
      description = "Schedule (default: the controller's only one).")
  String schedule;

  @Option(names = "--series", defaultValue = "center", paramLabel = "S",
      description = "center (candidate's median per run) or change (vs that run's baseline); default: ${DEFAULT-VALUE}.")
  String series;

  @picocli.CommandLine.Mixin HistoryAnalyzeCommand.DetectionOptions detection;

  @Override
  public Integer call() {
    if (metric == null) {
      throw new Problem("give a METRIC, e.g. abfleet history metadata_stat --controller HOST:PORT");
    }
    if (controller == null) {
      throw new Problem("--controller HOST:PORT is required: the controller keeps the history (old files:"
          + " abfleet history import --controller HOST:PORT)");
    }
    checkOptions();
    try (NightlyClient client = new NightlyClient(ControllerAddress.check(controller, auth))) {
      return print(client, System.out);
    }
  }

  void checkOptions() {
    if (!series.equals("center") && !series.equals("change")) {
      throw new Problem("--series " + series + ": expected center or change");
    }
    detection.check();
  }

  int print(NightlyClient client, PrintStream out) {
    String name = schedule != null ? schedule : onlySchedule(client.schedules());
    GetSeriesResponse r = client.series(GetSeriesRequest.newBuilder().setSchedule(name).setMetric(metric)
        .setSeries(series).setAlpha(detection.alpha).setMinSegment(detection.minSegment)
        .setMinChange(detection.minChange()).build());
    if (r.getRunsCount() == 0) {
      throw new Problem("no run of schedule '" + name + "' yet; the controller runs it at its cron times"
          + " (abfleet nightly --controller X --once " + name + " runs it now; abfleet history import adds old files)");
    }
    MetricHistory h = MetricHistory.of(r);
    if (h.runs().stream().noneMatch(e -> e.metric(metric).isPresent())) {
      throw new Problem("no run of schedule '" + name + "' measured " + metric + "; measured: "
          + String.join(", ", h.runs().stream().flatMap(e -> e.metrics().stream())
              .map(HistoryEntry.Metric::metric).distinct().toList()));
    }
    out.print(detection.format.equals("json") ? HistoryFormat.json(h) : HistoryFormat.text(h));
    out.flush();
    return ExitCodes.OK;
  }

  private static String onlySchedule(List<ScheduleInfo> schedules) {
    if (schedules.size() == 1) {
      return schedules.get(0).getName();
    }
    throw new Problem(schedules.isEmpty()
        ? "the controller runs no schedules; name the schedule of imported runs with --schedule NAME"
        : "the controller runs several schedules (" + String.join(", ", schedules.stream().map(ScheduleInfo::getName)
            .toList()) + "); pick one with --schedule NAME");
  }
}
