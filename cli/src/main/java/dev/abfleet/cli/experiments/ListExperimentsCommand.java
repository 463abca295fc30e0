package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code abfleet experiments list}: one line per experiment, newest first. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List the experiments in the controller's journal, newest first.")
final class ListExperimentsCommand implements Callable<Integer> {
  private static final DateTimeFormatter CREATED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'").withZone(ZoneOffset.UTC);

  @Mixin
  ControllerOption options;

  @Option(names = "--state", paramLabel = "STATE",
      description = "Only experiments that are running, or done (completed, cancelled or failed);"
          + " or exactly one of completed, cancelled, failed.")
  String state;

  @Option(names = "--limit", defaultValue = "100", paramLabel = "N",
      description = "Show at most N experiments (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() {
    List<String> states = states(state);
    if (limit < 1) {
      throw new Problem("--limit " + limit + ": expected 1 or more");
    }
    List<ExperimentSummary> shown = new ArrayList<>();
    boolean more = options.call(ControllerOption.ONE_SHOT_LIMIT, client -> {
      String token = "";
      while (true) {
        ListExperimentsResponse page = client.list(states, Math.min(limit - shown.size(), 1000), token);
        shown.addAll(page.getExperimentsList());
        token = page.getNextPageToken();
        if (token.isEmpty()) {
          return false;
        }
        if (shown.size() >= limit) {
          return true;
        }
      }
    });
    System.out.print(table(shown));
    if (more) {
      System.err.println("abfleet: more experiments than --limit " + limit
          + "; pass a larger --limit to see them");
    }
    return ExitCodes.OK;
  }

  /** The states to ask for; {@code done} is every terminal state. */
  static List<String> states(String state) {
    if (state == null) {
      return List.of();
    }
    return switch (state) {
      case "running", "completed", "cancelled", "failed" -> List.of(state);
      case "done" -> List.of("completed", "cancelled", "failed");
      default -> throw new Problem("--state '" + state + "': expected running or done (or one of"
          + " completed, cancelled, failed)");
    };
  }

  /** One line per experiment under a header, columns padded to the widest value. */
  static String table(List<ExperimentSummary> experiments) {
    if (experiments.isEmpty()) {
      return "no experiments\n";
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("ID", "STATE", "PAIRS", "PRIORITY", "CREATED", "NAME"));
    for (ExperimentSummary e : experiments) {
      rows.add(List.of(e.getExperimentId(), e.getState(),
          e.getPairsDone() + "/" + e.getPairsWanted(), e.getPriority(),
          e.getCreatedAtMs() == 0 ? "-" : CREATED.format(Instant.ofEpochMilli(e.getCreatedAtMs())),
          e.getName()));
    }
    int[] width = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        sb.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + width[i] + "s  ", row.get(i)));
      }
      sb.append('\n');
    }
    return sb.toString().replaceAll(" +\n", "\n");
  }
}
