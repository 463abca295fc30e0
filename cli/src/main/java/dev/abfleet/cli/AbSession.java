package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.WorkerSettings;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** Runs one A/B request on a local fleet or a running controller and prints the report. */
final class AbSession {
  /** Reason recorded on an experiment cancelled because {@code abfleet ab} was stopped. */
  static final String INTERRUPTED = "abfleet ab interrupted";
  /** Printed (stderr) when the hosts are sim: no result is a measurement. */
  static final String SIMULATION = "SIMULATION: --hypervisor sim: every verdict comes from the sim performance"
      + " model; no kernel was booted";

  private AbSession() {}

  /** On an embedded controller with {@code workers} local worker agents. */
  static int run(AbRequest request, ReportFormat format, boolean gate, int workers, PrintStream out, PrintStream err) {
    try (LocalFleet fleet = LocalFleet.start(request.config(), WorkerSettings.defaultHome(), workers, err);
        ExperimentClient client = new ExperimentClient(fleet.target(),
            dev.abfleet.worker.link.ChannelSecurity.DEFAULT)) {
      String id = client.submit("", ExperimentClient.prepared(request.toSpec(fleet.hostIds()), WorkerSettings.defaultHome()));
      err.println("abfleet: experiment " + id + " submitted: " + request.baseline().name() + " vs "
          + request.candidateNames() + " on " + String.join(", ", fleet.hostIds()));
      return follow(client, id, format, gate, out, err);
    }
  }

  /** On the running controller at {@code request.hosts().controller()}, on its workers. */
  static int runRemote(AbRequest request, ReportFormat format, boolean gate, PrintStream out, PrintStream err) {
    String target = request.hosts().controller();
    try (ExperimentClient client = new ExperimentClient(target, Reconnect.standard(target, err))) {
      String id;
      try {
        id = client.submitUploading("", request.toSpec(List.of()), err);
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNAVAILABLE && e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED) {
          throw e;
        }
        err.println("abfleet: cannot reach the controller at " + target + " (" + e.getStatus().getCode() + "); check"
            + " --controller and that abfleet controller runs there");
        return ExitCodes.FAILED;
      }
      if (request.hosts().simulated()) {
        err.println("abfleet: ab: " + SIMULATION);
      }
      err.println("abfleet: experiment " + id + " submitted to " + target + ": " + request.baseline().name()
          + " vs " + request.candidateNames() + " (" + request.hosts().describe() + ")");
      return follow(client, id, format, gate, out, err);
    }
  }

  /**
   * Watches the experiment, prints its report and returns the exit code. Ctrl-C (or an interrupt
   * of this thread) cancels the experiment with {@link #INTERRUPTED} and prints the report of
   * the pairs done; a second Ctrl-C, or a stop of the process, cancels it without the report.
   */
  static int follow(ExperimentClient client, String id, ReportFormat format, boolean gate, PrintStream out,
      PrintStream err) {
    AtomicBoolean finished = new AtomicBoolean(false);
    Thread cancelOnInterrupt = new Thread(() -> {
      if (finished.compareAndSet(false, true)) {
        cancelQuietly(client, id);
      }
    });
    Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
    Experiment done;
    Progress progress = new Progress(err);
    try (CtrlC ctrlC = CtrlC.interrupting(Thread.currentThread(), () -> {
      progress.clear();
      err.println("abfleet: interrupted: cancelling experiment " + id + " (Ctrl-C again to quit without its report)");
      err.flush();
    })) {
      done = client.watch(id, progress::onChange);
    } catch (StatusRuntimeException | Reconnect.ControllerUnreachable e) {
      // Only an interrupt of this thread is the user's; a controller that stops is ridden out
      // by the watch.
      if (!Thread.currentThread().isInterrupted()) {
        throw e;
      }
      if (!finished.compareAndSet(false, true)) {
        return ExitCodes.FAILED;
      }
      boolean interrupted = Thread.interrupted();
      try {
        Experiment partial = cancelled(client, id);
        out.print(format.render(partial, noiseQuotes(client, partial, err)));
        out.flush();
        err.println("abfleet: experiment " + id + " cancelled (" + INTERRUPTED + "); the report covers the "
            + partial.getPairsDone() + " of " + partial.getPairsWanted() + " pairs done");
      } catch (RuntimeException unreachable) {
        err.println("abfleet: interrupted; experiment " + id + " could not be cancelled or read ("
            + unreachable.getMessage() + "); `abfleet experiments cancel " + id + "` cancels it");
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      return ExitCodes.FAILED;
    } finally {
      removeQuietly(cancelOnInterrupt);
    }
    finished.set(true);
    out.print(format.render(done, noiseQuotes(client, done, err)));
    out.flush();
    if (!done.getState().equals("completed")) {
      err.println("abfleet: experiment " + id + " " + done.getState() + ": " + done.getMessage());
      return ExitCodes.FAILED;
    }
    return gate ? ExitCodes.ofGate(done.getGate(), done.getOverall()) : ExitCodes.OK;
  }

  /**
   * The measured noise of the experiment's host classes: the controller's records when {@code ab}
   * talks to a controller, this machine's for the embedded fleet. A record that cannot be read is
   * skipped with a warning: the report is worth more than its noise section.
   */
  private static List<dev.abfleet.report.NoiseCalibration> noiseQuotes(ExperimentClient client, Experiment done,
      PrintStream err) {
    var local = dev.abfleet.cli.noise.NoiseStore.inHome(WorkerSettings.defaultHome());
    try {
      return dev.abfleet.cli.noise.NoiseQuotes.of(done, client.embedded() ? local
          : dev.abfleet.cli.noise.ControllerNoise.read(client.channel(), client.target(), local, err));
    } catch (Problem e) {
      err.println("abfleet: warning: " + e.getMessage());
      return List.of();
    } catch (StatusRuntimeException e) {
      err.println("abfleet: warning: the noise records of the controller at " + client.target()
          + " could not be read (" + e.getStatus().getCode() + ": " + e.getStatus().getDescription()
          + "); the report quotes none");
      return List.of();
    }
  }

  /** Cancels the experiment and returns it with every boot it recorded. */
  private static Experiment cancelled(ExperimentClient client, String id) {
    Experiment e = client.cancelAndGet(id, INTERRUPTED);
    return e.getNextBootsPageToken().isEmpty() ? e : client.get(id);
  }

  private static void cancelQuietly(ExperimentClient client, String id) {
    try {
      client.cancel(id, INTERRUPTED);
    } catch (RuntimeException e) {
      // The controller is unreachable or going down with us; the experiment stays recorded as it was.
    }
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or has run: the experiment is being cancelled.
    }
  }
}
