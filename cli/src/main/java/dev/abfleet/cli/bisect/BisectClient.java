package dev.abfleet.cli.bisect;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.Reconnect;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectServiceGrpc;
import dev.abfleet.proto.fleet.v1.CancelBisectRequest;
import dev.abfleet.proto.fleet.v1.GetBisectRequest;
import dev.abfleet.proto.fleet.v1.ListBisectsRequest;
import dev.abfleet.proto.fleet.v1.ListBisectsResponse;
import dev.abfleet.proto.fleet.v1.StartBisectRequest;
import dev.abfleet.proto.fleet.v1.WatchBisectRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The CLI's side of BisectService. Every call rides out a controller restart ({@link Reconnect}):
 * the bisect runs on in the controller meanwhile, and a start is safe to repeat under its id.
 */
final class BisectClient implements AutoCloseable {
  static final Set<String> TERMINAL = Set.of("found", "ambiguous", "failed", "cancelled");

  private final ManagedChannel channel;
  private final BisectServiceGrpc.BisectServiceBlockingStub stub;
  private final Reconnect reconnect;

  /**
   * @param target a checked address ({@link ControllerAddress#check})
   * @param err where the client says that the controller went away and came back
   */
  BisectClient(String target, PrintStream err) {
    this.channel = ControllerAddress.channel(target);
    this.stub = BisectServiceGrpc.newBlockingStub(channel);
    this.reconnect = Reconnect.standard(target, err);
  }

  /** Starts the bisect; INVALID_ARGUMENT and FAILED_PRECONDITION become a {@link Problem}. */
  String start(StartBisectRequest request) {
    return problems(() -> reconnect.call(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
        .startBisect(request).getBisectId()));
  }

  Bisect get(String id) {
    return problems(() -> reconnect.call(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
        .getBisect(GetBisectRequest.newBuilder().setBisectId(id).build())));
  }

  Bisect cancel(String id, String reason) {
    return problems(() -> reconnect.call(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
        .cancelBisect(CancelBisectRequest.newBuilder().setBisectId(id).setReason(reason).build())));
  }

  ListBisectsResponse list() {
    return problems(() -> reconnect.call(() -> stub.withDeadlineAfter(60, TimeUnit.SECONDS)
        .listBisects(ListBisectsRequest.getDefaultInstance())));
  }

  /**
   * Follows the bisect until it is terminal and returns its final state; a stream that breaks
   * (controller restart) is opened again after a fresh {@link #get}.
   */
  Bisect watch(String id, Consumer<Bisect> onChange) {
    Bisect last = null;
    while (last == null || !TERMINAL.contains(last.getState())) {
      try {
        Iterator<Bisect> it = stub.watchBisect(WatchBisectRequest.newBuilder().setBisectId(id).build());
        while (it.hasNext()) {
          last = it.next();
          reconnect.reached();
          onChange.accept(last);
        }
      } catch (StatusRuntimeException e) {
        if (!Reconnect.streamBroken(e)) {
          throw asProblem(e);
        }
        reconnect.backOff(e);
      }
      if (last == null || !TERMINAL.contains(last.getState())) {
        last = get(id);
        onChange.accept(last);
      }
    }
    return last;
  }

  private static <T> T problems(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw asProblem(e);
    }
  }

  /** A failure the user can fix (bad input, unknown id, a fleet that cannot run it) as one line. */
  private static RuntimeException asProblem(StatusRuntimeException e) {
    Status.Code c = e.getStatus().getCode();
    if (c == Status.Code.INVALID_ARGUMENT || c == Status.Code.FAILED_PRECONDITION || c == Status.Code.NOT_FOUND) {
      return new Problem(e.getStatus().getDescription());
    }
    return e;
  }

  @Override
  public void close() {
    ControllerAddress.close(channel);
  }
}
