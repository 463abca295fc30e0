package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.io.PrintStream;

/** Runs experiments at a controller over gRPC, printing one line per finished pair. */
public final class GrpcExperimentRunner implements ExperimentRunner {
  private final ExperimentClient client;
  private final PrintStream err;

  public GrpcExperimentRunner(ExperimentClient client, PrintStream err) {
    this.client = client;
    this.err = err;
  }

  @Override
  public Experiment run(String id, ExperimentSpec spec) {
    String submitted = client.submitUploading(id, spec, err);
    int[] lastPairs = {-1};
    Experiment done = client.watch(submitted, e -> {
      if (e.getPairsDone() != lastPairs[0]) {
        lastPairs[0] = e.getPairsDone();
        err.println("abfleet: " + submitted + ": " + e.getPairsDone() + "/" + e.getPairsWanted() + " pairs");
      }
    });
    err.println("abfleet: " + submitted + " " + done.getState()
        + (done.getOverall().isEmpty() ? "" : ", overall " + done.getOverall())
        + (done.getMessage().isEmpty() ? "" : ": " + done.getMessage()));
    return done;
  }
}
