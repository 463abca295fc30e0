package dev.abfleet.cli;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.WorkerSettings;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/** Runs one A/B request on a local fleet and prints the report. */
final class AbSession {
  private AbSession() {}

  static int run(AbRequest request, ReportFormat format, boolean gate, int workers, PrintStream out, PrintStream err) {
    try (LocalFleet fleet = LocalFleet.start(request.config(), WorkerSettings.defaultHome(), workers, err);
        ExperimentClient client = new ExperimentClient(fleet.target())) {
      String id = client.submit("", request.toSpec(fleet.hostIds()));
      err.println("abfleet: experiment " + id + " submitted: " + request.baseline().name() + " vs "
          + request.candidateNames() + " on " + String.join(", ", fleet.hostIds()));
      AtomicBoolean finished = new AtomicBoolean(false);
      Thread cancelOnInterrupt = new Thread(() -> {
        if (!finished.get()) {
          try {
            client.cancel(id, "abfleet ab interrupted");
          } catch (RuntimeException e) {
            // The controller is going down with us; the experiment stays recorded as it was.
          }
        }
      });
      Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
      Progress progress = new Progress(err);
      Experiment done = client.watch(id, progress::onChange);
      finished.set(true);
      Runtime.getRuntime().removeShutdownHook(cancelOnInterrupt);
      out.print(format.render(done));
      out.flush();
      if (!done.getState().equals("completed")) {
        err.println("abfleet: experiment " + id + " " + done.getState() + ": " + done.getMessage());
        return Main.EXIT_FAILED;
      }
      boolean regressed = done.getComparisonsList().stream()
          .anyMatch(c -> c.getGating() && c.getVerdict().equals("regressed"));
      return gate && regressed ? Main.EXIT_GATE : Main.EXIT_OK;
    }
  }
}
