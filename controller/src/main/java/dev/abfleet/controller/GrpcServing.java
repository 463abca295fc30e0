package dev.abfleet.controller;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/** Whether this node's gRPC server is serving; one per actor system, read by the readiness check. */
public final class GrpcServing implements Extension {
  private static final Id ID = new Id();

  private final AtomicBoolean serving = new AtomicBoolean();

  private GrpcServing() {}

  public static GrpcServing get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  void set(boolean value) {
    serving.set(value);
  }

  public boolean isServing() {
    return serving.get();
  }

  private static final class Id extends ExtensionId<GrpcServing> {
    @Override
    public GrpcServing createExtension(ActorSystem<?> system) {
      return new GrpcServing();
    }
  }

  /**
   * Pekko Management readiness check (configured by class name): ready once gRPC serves. The
   * cluster-membership check that Pekko Management's cluster module adds covers "member Up".
   */
  public static final class ReadinessCheck implements Supplier<CompletionStage<Boolean>> {
    private final GrpcServing serving;

    public ReadinessCheck(org.apache.pekko.actor.ActorSystem system) {
      this.serving = GrpcServing.get(Adapter.toTyped(system));
    }

    @Override
    public CompletionStage<Boolean> get() {
      return CompletableFuture.completedFuture(serving.isServing());
    }
  }
}
