package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.worker.WorkerSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A/A experiments: one kernel as both arms ({@value #BASELINE} and {@value #TWIN}), run the way
 * {@code abfleet ab} runs an experiment (an embedded controller with a local worker, or the
 * controller at {@code controller}), one after the other. No report is printed: the caller
 * measures the noise of the finished experiments.
 */
public final class AaExperiments {
  public static final String BASELINE = "a";
  public static final String TWIN = "a2";

  private AaExperiments() {}

  /**
   * The spec of one A/A experiment of {@code kernel} with {@code pairs} pairs (a fixed design: the
   * noise of every pair is wanted, so no sequential early stop).
   *
   * @param controller null for the embedded fleet (then {@code hostIds} pins the local workers)
   * @param hypervisor the hosts' hypervisor, e.g. qemu or sim (sim needs a {@code controller})
   * @throws Problem the kernel, benchmark, pairs or hypervisor are unusable
   */
  public static ExperimentSpec spec(Path kernel, FleetConfig cfg, String benchmark, int pairs, String controller,
      String hypervisor, List<String> hostIds) {
    AbRequest request = new AbRequest(new ArmArg(BASELINE, kernel, ""), List.of(new ArmArg(TWIN, kernel, "")), null,
        cfg, benchmark, null, pairs, null, null, null, null, null, null, null,
        AbHosts.of(controller, "adhoc", List.of(hypervisor), null, null, null));
    return request.toSpec(hostIds).toBuilder().setName("aa-" + BASELINE + "-vs-" + TWIN).build();
  }

  /**
   * Runs {@code count} A/A experiments and returns them as they ended (completed, failed or
   * cancelled), progress to {@code err}.
   */
  public static List<Experiment> run(Path kernel, FleetConfig cfg, String benchmark, int pairs, int count,
      String controller, String hypervisor, PrintStream err) {
    spec(kernel, cfg, benchmark, pairs, controller, hypervisor, List.of()); // checks the request before a fleet starts
    List<Experiment> out = new ArrayList<>();
    if (controller != null) {
      try (ExperimentClient client = new ExperimentClient(controller)) {
        for (int i = 1; i <= count; i++) {
          String id = client.submitUploading("", spec(kernel, cfg, benchmark, pairs, controller, hypervisor, List.of()),
              err);
          out.add(watch(client, id, i, count, err));
        }
      }
      return out;
    }
    Path home = WorkerSettings.defaultHome();
    try (LocalFleet fleet = LocalFleet.start(cfg, home, 1, err);
        ExperimentClient client = new ExperimentClient(fleet.target(), dev.abfleet.worker.link.ChannelSecurity.DEFAULT)) {
      for (int i = 1; i <= count; i++) {
        ExperimentSpec spec = ExperimentClient.prepared(spec(kernel, cfg, benchmark, pairs, null, hypervisor,
            fleet.hostIds()), home);
        out.add(watch(client, client.submit("", spec), i, count, err));
      }
    }
    return out;
  }

  /** Reason recorded on an A/A experiment cancelled because its process was stopped. */
  static final String INTERRUPTED = "abfleet calibrate --real interrupted";

  /** Watches one experiment; stopping the process (Ctrl-C) meanwhile cancels it with {@link #INTERRUPTED}. */
  private static Experiment watch(ExperimentClient client, String id, int i, int count, PrintStream err) {
    err.println("abfleet: A/A experiment " + i + "/" + count + ": " + id + " submitted");
    Thread cancel = new Thread(() -> {
      try {
        client.cancel(id, INTERRUPTED);
      } catch (RuntimeException e) {
        // The controller is unreachable or going down with us; the experiment stays as recorded.
      }
    });
    Runtime.getRuntime().addShutdownHook(cancel);
    Experiment done;
    try {
      done = client.watch(id, new Progress(err)::onChange);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cancel);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: the experiment is being cancelled.
      }
    }
    err.println("abfleet: A/A experiment " + id + " " + done.getState()
        + (done.getMessage().isEmpty() ? "" : ": " + done.getMessage()));
    return done;
  }
}
