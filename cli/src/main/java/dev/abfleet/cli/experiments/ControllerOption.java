package dev.abfleet.cli.experiments;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.config.Problem;
import dev.abfleet.cli.Reconnect;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Random;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** The --controller option of the experiments commands, and how their calls fail. */
final class ControllerOption {
  /** How long a one-shot command (list, show, cancel) waits for a controller that is away. */
  static final Duration ONE_SHOT_LIMIT = Duration.ofMinutes(1);

  @Option(names = "--controller", defaultValue = "127.0.0.1:7070", paramLabel = "HOST:PORT[,...]",
      description = "Controller gRPC address; several (a controller cluster's nodes) separated by"
          + " commas (default: ${DEFAULT-VALUE}).")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  /**
   * Runs {@code call} on a client that waits up to {@code limit} for an absent controller.
   * NOT_FOUND, INVALID_ARGUMENT and FAILED_PRECONDITION are the user's to fix: one line, exit 2.
   */
  <T> T call(Duration limit, Function<ExperimentClient, T> call) {
    String target = ControllerAddress.check(controller, auth);
    Reconnect reconnect = new Reconnect(target, limit, System.err, System::nanoTime, Thread::sleep,
        new Random());
    try (ExperimentClient client = new ExperimentClient(target, reconnect)) {
      return call.apply(client);
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      if (code == Status.Code.NOT_FOUND || code == Status.Code.INVALID_ARGUMENT
          || code == Status.Code.FAILED_PRECONDITION) {
        throw new Problem(e.getStatus().getDescription());
      }
      throw e;
    }
  }
}
