package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.experiment.ExperimentCatalog;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentIds;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.grpc.DomainToProto;
import dev.abfleet.controller.grpc.HeartbeatAges;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * What the dashboard shows, read the way the gRPC API reads it: the experiment list from the
 * journal's {@link ExperimentCatalog}, each experiment from its entity (with its place in line
 * and ETA from the scheduler while it runs), the hosts from the scheduler. Answers are the same
 * proto messages the API returns, so the dashboard and {@code abfleet status} cannot disagree.
 */
public class FleetReader {
  /** The newest experiments the front page lists. */
  static final int LISTED = 50;

  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Duration askTimeout;
  // Null when the journal is in memory: it cannot be listed (see ExperimentServiceImpl).
  private final ExperimentCatalog catalog;

  public FleetReader(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler,
      Duration askTimeout) {
    this.system = system;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
    this.catalog = "jdbc-journal".equals(
        system.settings().config().getString("pekko.persistence.journal.plugin"))
        ? new ExperimentCatalog(system) : null;
  }

  /** For tests that answer from fixed data. */
  FleetReader() {
    this.system = null;
    this.scheduler = null;
    this.askTimeout = Duration.ZERO;
    this.catalog = null;
  }

  /** Whether {@link #experiments()} can list anything (the journal is H2 or PostgreSQL). */
  public boolean canList() {
    return catalog != null;
  }

  /** The newest {@link #LISTED} experiments, each in full; empty when the journal is in memory. */
  public CompletionStage<List<Experiment>> experiments() {
    if (catalog == null) {
      return CompletableFuture.completedFuture(List.of());
    }
    return catalog.list(Set.of(), LISTED, "").thenCompose(page -> {
      List<CompletableFuture<Optional<Experiment>>> each = new ArrayList<>();
      page.experiments().forEach(s -> each.add(experiment(s.id()).toCompletableFuture()));
      return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
          .thenApply(done -> each.stream().map(CompletableFuture::join)
              .flatMap(Optional::stream).toList());
    });
  }

  /** The experiment with its place in line and ETA; empty for an id no experiment has. */
  public CompletionStage<Optional<Experiment>> experiment(String id) {
    if (ExperimentIds.check("experiment id", id).isPresent()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    CompletionStage<ExperimentView> view = ClusterSharding.get(system)
        .entityRefFor(ExperimentEntity.TYPE_KEY, id)
        .ask(ExperimentEntity.Get::new, askTimeout);
    return view.thenCompose(v -> {
      if (!v.known()) {
        return CompletableFuture.completedFuture(Optional.<Experiment>empty());
      }
      if (v.terminal()) {
        return CompletableFuture.completedFuture(Optional.of(DomainToProto.experiment(v, 0, 0)));
      }
      CompletionStage<Scheduler.Standing> standing = AskPattern.ask(scheduler,
          replyTo -> new Scheduler.GetStanding(id, replyTo), askTimeout, system.scheduler());
      return standing.thenApply(st -> Optional.of(DomainToProto.experiment(v,
          st.queuePosition(), v.etaSeconds(st.hostsHeld()))));
    });
  }

  /**
   * Every host the scheduler knows, as {@code abfleet hosts} lists them, with how long ago each
   * connected worker last spoke.
   */
  public CompletionStage<List<Host>> hosts() {
    CompletionStage<Scheduler.Hosts> hosts =
        AskPattern.ask(scheduler, Scheduler.ListHosts::new, askTimeout, system.scheduler());
    return hosts.thenCombine(HeartbeatAges.of(system, askTimeout),
        (h, ages) -> h.hosts().stream().map(v -> DomainToProto.host(v, ages)).toList());
  }
}
