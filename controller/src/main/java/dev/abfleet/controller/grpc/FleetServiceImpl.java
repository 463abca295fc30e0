package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.HostNames;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ReleaseHostRequest;
import dev.abfleet.proto.fleet.v1.UndrainHostRequest;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/** The operators' API: drain, undrain and release hosts (durable host states). */
public final class FleetServiceImpl implements FleetServiceGrpc.AsyncService, io.grpc.BindableService {
  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Duration askTimeout;

  public FleetServiceImpl(
      ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, Duration askTimeout) {
    this.system = system;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
  }

  /**
   * Requests that do not parse are answered INVALID_ARGUMENT (see {@link RequestParsing}); the
   * generated base class would make this method final, so the service interface is implemented.
   */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(FleetServiceGrpc.bindService(this));
  }

  @Override
  public void drainHost(DrainHostRequest request, StreamObserver<Host> responses) {
    respond(ask(request.getHostId(),
        replyTo -> new Scheduler.DrainHost(request.getHostId(), request.getReason(), replyTo)),
        responses);
  }

  @Override
  public void undrainHost(UndrainHostRequest request, StreamObserver<Host> responses) {
    respond(ask(request.getHostId(),
        replyTo -> new Scheduler.UndrainHost(request.getHostId(), replyTo)), responses);
  }

  @Override
  public void releaseHost(ReleaseHostRequest request, StreamObserver<Host> responses) {
    respond(ask(request.getHostId(),
        replyTo -> new Scheduler.ReleaseHost(request.getHostId(), replyTo)), responses);
  }

  private CompletionStage<Host> ask(
      String hostId, Function<ActorRef<Scheduler.HostReply>, Scheduler.Command> command) {
    var problem = HostNames.check("host_id", hostId);
    if (problem.isPresent()) {
      return CompletableFuture.failedFuture(new IllegalArgumentException(problem.get()));
    }
    return AskPattern.ask(scheduler, command::apply, askTimeout, system.scheduler())
        .thenApply(reply -> {
          if (reply instanceof Scheduler.UnknownHost unknown) {
            throw new GrpcErrors.UnknownHost(unknown.hostId(), unknown.known());
          }
          return DomainToProto.host(((Scheduler.HostChanged) reply).host());
        });
  }

  private static void respond(CompletionStage<Host> answer, StreamObserver<Host> responses) {
    answer.whenComplete((host, failure) -> {
      if (failure != null) {
        responses.onError(GrpcErrors.toStatus(failure));
      } else {
        responses.onNext(host);
        responses.onCompleted();
      }
    });
  }
}
