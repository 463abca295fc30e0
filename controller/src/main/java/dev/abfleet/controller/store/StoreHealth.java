package dev.abfleet.controller.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/** Whether this node's event store has failed; one per actor system, read by the readiness check. */
public final class StoreHealth implements Extension {
  private static final Id ID = new Id();

  private final AtomicBoolean failed = new AtomicBoolean();

  private StoreHealth() {}

  public static StoreHealth get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /** Marks the store failed: from now on the node is not ready. */
  public void fail() {
    failed.set(true);
  }

  public boolean hasFailed() {
    return failed.get();
  }

  private static final class Id extends ExtensionId<StoreHealth> {
    @Override
    public StoreHealth createExtension(ActorSystem<?> system) {
      return new StoreHealth();
    }
  }

  /** Pekko Management readiness check (configured by class name): not ready once the store failed. */
  public static final class ReadinessCheck implements Supplier<CompletionStage<Boolean>> {
    private final StoreHealth health;

    public ReadinessCheck(org.apache.pekko.actor.ActorSystem system) {
      this.health = StoreHealth.get(Adapter.toTyped(system));
    }

    @Override
    public CompletionStage<Boolean> get() {
      return CompletableFuture.completedFuture(!health.hasFailed());
    }
  }
}
