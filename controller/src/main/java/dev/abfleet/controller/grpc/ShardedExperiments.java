package dev.abfleet.controller.grpc;

import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.experiment.SpecValidator;
import dev.abfleet.controller.nightly.Experiments;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * The controller's own experiments, for the nightly actor: submitted and read through the
 * experiment shards as ExperimentService does (the spec converted and validated the same way),
 * without a gRPC hop.
 */
public final class ShardedExperiments implements Experiments {
  private final ClusterSharding sharding;
  private final Duration askTimeout;

  public ShardedExperiments(ActorSystem<?> system, Duration askTimeout) {
    this.sharding = ClusterSharding.get(system);
    this.askTimeout = askTimeout;
  }

  @Override
  public CompletionStage<String> submit(String id, ExperimentSpec spec) {
    dev.abfleet.controller.experiment.ExperimentSpec domain;
    try {
      domain = ProtoToDomain.spec(spec);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    var problems = SpecValidator.validate(domain);
    if (!problems.isEmpty()) {
      return CompletableFuture.failedFuture(GrpcErrors.invalid(problems));
    }
    return sharding.entityRefFor(ExperimentEntity.TYPE_KEY, id)
        .<ExperimentEntity.Accepted>askWithStatus(replyTo -> new ExperimentEntity.Submit(domain, replyTo), askTimeout)
        .thenApply(ExperimentEntity.Accepted::experimentId);
  }

  @Override
  public CompletionStage<Experiment> get(String id) {
    return sharding.entityRefFor(ExperimentEntity.TYPE_KEY, id)
        .<ExperimentView>ask(ExperimentEntity.Get::new, askTimeout)
        .thenApply(v -> v.known() ? DomainToProto.experiment(v, 0, 0)
            : Experiment.newBuilder().setExperimentId(id).setState("unknown").build());
  }
}
