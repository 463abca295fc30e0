package dev.abfleet.controller.grpc;

import dev.abfleet.controller.artifact.ArtifactStore;
import dev.abfleet.controller.artifact.StoreException;
import dev.abfleet.controller.build.BuildEntity;
import dev.abfleet.controller.build.BuildState;
import dev.abfleet.controller.build.BuildView;
import dev.abfleet.controller.plan.BuildInputs;
import dev.abfleet.proto.fleet.v1.BuildServiceGrpc;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import dev.abfleet.proto.fleet.v1.GetBuildRequest;
import dev.abfleet.proto.fleet.v1.SubmitBuildRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/** The build API: each call converts proto -> command, asks the build entity, converts back. */
public final class BuildServiceImpl implements BuildServiceGrpc.AsyncService, io.grpc.BindableService {
  /** How often WatchBuild looks for changes: progress moves every few seconds. */
  static final Duration WATCH_POLL = Duration.ofMillis(500);
  private static final Pattern ID = Pattern.compile("[0-9a-f]{64}");

  private final ActorSystem<?> system;
  private final ClusterSharding sharding;
  private final ArtifactStore store;
  private final Duration askTimeout;

  /** @param store where the inputs must be before a build is queued */
  public BuildServiceImpl(ActorSystem<?> system, ArtifactStore store, Duration askTimeout) {
    this.system = system;
    this.sharding = ClusterSharding.get(system);
    this.store = store;
    this.askTimeout = askTimeout;
  }

  /** Requests that do not parse are answered INVALID_ARGUMENT (see {@link RequestParsing}). */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(BuildServiceGrpc.bindService(this));
  }

  @Override
  public void submitBuild(SubmitBuildRequest request, StreamObserver<BuildStatus> responses) {
    List<String> problems = BuildProtos.problems(request.getInputs());
    if (!problems.isEmpty()) {
      responses.onError(GrpcErrors.toStatus(GrpcErrors.invalid(problems)));
      return;
    }
    BuildInputs inputs = BuildProtos.inputs(request.getInputs());
    CompletionStage<BuildView> submitted;
    try {
      missing(inputs);
      submitted = entity(inputs.buildId()).ask(replyTo -> new BuildEntity.Submit(inputs, replyTo), askTimeout);
    } catch (RuntimeException e) {
      submitted = CompletableFuture.failedFuture(e);
    }
    reply(submitted, responses);
  }

  /** FAILED_PRECONDITION naming the inputs the store does not hold (complete). */
  private void missing(BuildInputs inputs) {
    List<String> absent = new ArrayList<>();
    for (BuildInputs.File f : inputs.files()) {
      try {
        if (!store.status(f.sha256()).complete()) {
          absent.add(f.name() + " (sha256 " + f.sha256() + ")");
        }
      } catch (StoreException e) {
        throw Status.UNAVAILABLE.withDescription("the artifact store cannot be read: " + e.getMessage())
            .asRuntimeException();
      }
    }
    if (!absent.isEmpty()) {
      throw new GrpcErrors.Unsatisfiable("not in the controller's artifact store: " + String.join(", ", absent)
          + "; upload them (ArtifactService.UploadArtifact) before SubmitBuild");
    }
  }

  @Override
  public void getBuild(GetBuildRequest request, StreamObserver<BuildStatus> responses) {
    reply(view(request.getBuildId()), responses);
  }

  /** Polls the build and sends it whenever it changed; completes after BUILT or FAILED. */
  @Override
  public void watchBuild(GetBuildRequest request, StreamObserver<BuildStatus> responses) {
    poll(request.getBuildId(), (ServerCallStreamObserver<BuildStatus>) responses, null);
  }

  private void poll(String id, ServerCallStreamObserver<BuildStatus> out, BuildStatus last) {
    view(id).whenComplete((view, failure) -> {
      if (out.isCancelled()) {
        return;
      }
      if (failure != null) {
        out.onError(GrpcErrors.toStatus(failure));
        return;
      }
      BuildStatus now = BuildProtos.status(view);
      // A watcher that cannot take a message gets the latest state later (conflated), never a queue.
      boolean sent = !now.equals(last) && out.isReady();
      if (sent) {
        out.onNext(now);
      }
      if (view.state().done() && (sent || now.equals(last))) {
        out.onCompleted();
        return;
      }
      BuildStatus seen = sent ? now : last;
      system.scheduler().scheduleOnce(WATCH_POLL, () -> poll(id, out, seen), system.executionContext());
    });
  }

  private CompletionStage<BuildView> view(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("build_id: '" + id
          + "'; expected the 64 hex digits SubmitBuild returned"));
    }
    return entity(id).<BuildView>ask(BuildEntity.Get::new, askTimeout).thenApply(v -> {
      if (v.state().status() == BuildState.Status.NEW) {
        throw Status.NOT_FOUND.withDescription("unknown build '" + id + "'; SubmitBuild returns the id")
            .asRuntimeException();
      }
      return v;
    });
  }

  private EntityRef<BuildEntity.Command> entity(String id) {
    return sharding.entityRefFor(BuildEntity.TYPE_KEY, id);
  }

  private static void reply(CompletionStage<BuildView> view, StreamObserver<BuildStatus> responses) {
    view.whenComplete((v, failure) -> {
      if (failure != null) {
        responses.onError(GrpcErrors.toStatus(failure));
      } else {
        responses.onNext(BuildProtos.status(v));
        responses.onCompleted();
      }
    });
  }
}
