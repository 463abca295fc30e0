package dev.abfleet.cli.history;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.nightly.NightlyClient;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.ImportHistoryResponse;
import dev.abfleet.proto.fleet.v1.NightlyRun;
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

/** {@code abfleet history import}: old JSONL history files into the controller's store. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Send the runs of old history files ($ABFLEET_HOME/history/<schedule>.jsonl, written by abfleet",
      "nightly before the controller ran schedules) to the controller. Runs it has already (by",
      "experiment id) are skipped, so importing a file twice adds nothing. Lines that are not runs",
      "are reported and left out."
    })
final class HistoryImportCommand implements Callable<Integer> {
  /** Runs per ImportHistory call: well under gRPC's message limit. */
  static final int BATCH = 500;

  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "History files (default: every $ABFLEET_HOME/history/*.jsonl).")
  List<Path> files;

  @Override
  public Integer call() throws IOException {
    List<Path> chosen = files == null || files.isEmpty() ? defaultFiles(WorkerSettings.defaultHome()) : files;
    try (NightlyClient client = new NightlyClient(ControllerAddress.check(controller, auth))) {
      importFiles(client, chosen, System.out, System.err);
    }
    return ExitCodes.OK;
  }

  /** Imports each file; one line per file on {@code out}, a warning per unreadable line on {@code err}. */
  static void importFiles(NightlyClient client, List<Path> files, PrintStream out, PrintStream err) throws IOException {
    for (Path f : files) {
      if (!Files.isRegularFile(f)) {
        throw new Problem(f + " is not a file; give history files (<schedule>.jsonl) or none for every one under"
            + " $ABFLEET_HOME/history");
      }
      HistoryFile.Contents c = new HistoryFile(f).read();
      c.problems().forEach(p -> err.println("abfleet: warning: " + f + ":" + p.line() + ": " + p.message()
          + "; line not imported"));
      List<NightlyRun> runs = c.entries().stream().map(HistoryRuns::toProto).toList();
      int added = 0;
      int skipped = 0;
      for (int i = 0; i < runs.size(); i += BATCH) {
        ImportHistoryResponse r = client.importRuns(runs.subList(i, Math.min(runs.size(), i + BATCH)));
        added += r.getAdded();
        skipped += r.getSkipped();
      }
      out.println(f + ": " + added + " run(s) added, " + skipped + " already known"
          + (c.problems().isEmpty() ? "" : ", " + c.problems().size() + " unreadable line(s)"));
    }
  }

  static List<Path> defaultFiles(Path home) throws IOException {
    Path dir = home.resolve("history");
    if (!Files.isDirectory(dir)) {
      throw new Problem("no history files: " + dir + " does not exist; give the files to import");
    }
    try (Stream<Path> list = Files.list(dir)) {
      List<Path> found = list.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
      if (found.isEmpty()) {
        throw new Problem("no *.jsonl history file in " + dir + "; give the files to import");
      }
      return found;
    }
  }
}
