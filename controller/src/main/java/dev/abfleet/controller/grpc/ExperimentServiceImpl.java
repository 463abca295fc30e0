package dev.abfleet.controller.grpc;

import dev.abfleet.controller.experiment.ExperimentCatalog;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentIds;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.experiment.SpecValidator;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.security.Caller;
import dev.abfleet.controller.security.Role;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentProgress;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.controller.fleet.HostPage;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsResponse;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentResponse;
import dev.abfleet.proto.fleet.v1.WatchExperimentRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/** The client API: each call converts proto -> command, asks with a timeout, converts back. */
public final class ExperimentServiceImpl implements ExperimentServiceGrpc.AsyncService, io.grpc.BindableService {
  /**
   * How often WatchExperiment looks for changes. A look is cheap (the entity keeps its last view,
   * the scheduler its standings), and it bounds how late a watcher learns that its experiment
   * ended.
   */
  static final Duration WATCH_POLL = Duration.ofMillis(100);
  /** Experiment states after which nothing changes any more. */
  private static final java.util.Set<String> TERMINAL = java.util.Set.of("completed", "cancelled", "failed");

  private final ActorSystem<?> system;
  private final ClusterSharding sharding;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Duration askTimeout;
  private final SecureRandom random = new SecureRandom();
  // Null when the journal is in memory (tests): nothing to list from.
  private final ExperimentCatalog catalog;
  static final int DEFAULT_PAGE = 100;
  static final int MAX_PAGE = 1000;
  /** The most hosts in one ListHosts page; 0 still means every host in one answer. */
  static final int MAX_HOST_PAGE = 10_000;

  /**
   * The page size a ListExperiments request asks for: {@code page_size} is a uint32 on the wire,
   * which Java reads as a signed int, so 2147483648 arrives negative and 4294967295 as -1; it is
   * read unsigned here. 0 = {@link #DEFAULT_PAGE}; above {@link #MAX_PAGE} is refused (a client
   * asking for more than a page holds would otherwise get less than it asked for, silently).
   *
   * @throws IllegalArgumentException naming the value as sent and the range
   */
  static int pageSize(int wire) {
    long asked = Integer.toUnsignedLong(wire);
    if (asked == 0) {
      return DEFAULT_PAGE;
    }
    if (asked > MAX_PAGE) {
      throw new IllegalArgumentException("page_size " + asked + ": expected 1 to " + MAX_PAGE
          + " (0 = " + DEFAULT_PAGE + "); follow next_page_token for more");
    }
    return (int) asked;
  }

  public ExperimentServiceImpl(
      ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, Duration askTimeout) {
    this.system = system;
    this.catalog = "jdbc-journal".equals(
        system.settings().config().getString("pekko.persistence.journal.plugin"))
        ? new ExperimentCatalog(system) : null;
    this.sharding = ClusterSharding.get(system);
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
  }

  /**
   * Requests that do not parse are answered INVALID_ARGUMENT (see {@link RequestParsing}); the
   * generated base class would make this method final, so the service interface is implemented.
   */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(ExperimentServiceGrpc.bindService(this));
  }

  @Override
  public void submitExperiment(
      SubmitExperimentRequest request, StreamObserver<SubmitExperimentResponse> responses) {
    String id = request.getExperimentId().isEmpty() ? newId() : request.getExperimentId();
    var idProblem = ExperimentIds.check("experiment_id", id);
    if (idProblem.isPresent()) {
      responses.onError(GrpcErrors.toStatus(new IllegalArgumentException(idProblem.get()
          + " (or leave it empty for a generated one)")));
      return;
    }
    var spec = ProtoToDomain.spec(request.getSpec()).withOwner(Caller.current().ownerId());
    reply(fleetCanRun(spec).thenCompose(ok -> entity(id).<ExperimentEntity.Accepted>askWithStatus(
            replyTo -> new ExperimentEntity.Submit(spec, replyTo), askTimeout)),
        accepted -> SubmitExperimentResponse.newBuilder().setExperimentId(accepted.experimentId()).build(),
        responses);
  }

  /**
   * Fails with INVALID_ARGUMENT for a spec the experiment would reject anyway (so bad fields are
   * named before the fleet is), and with FAILED_PRECONDITION when no host known since the
   * controller started can ever run the selector (for a cross-host selector: some listed
   * hypervisor on its own). No host known at all is not a failure.
   */
  private CompletionStage<Void> fleetCanRun(dev.abfleet.controller.experiment.ExperimentSpec spec) {
    var problems = new ArrayList<>(SpecValidator.validate(spec));
    if (problems.isEmpty()) {
      dev.abfleet.controller.experiment.DesignRule.problem(spec).ifPresent(problems::add);
    }
    if (!problems.isEmpty()) {
      return CompletableFuture.failedFuture(GrpcErrors.invalid(problems));
    }
    // A cross-host selector must be satisfiable for each hypervisor it lists: every one of them
    // is a host class the experiment waits for.
    List<HostSelector> selectors = new ArrayList<>(List.of(spec.selector()));
    if (spec.selector().allowedHypervisors().size() > 1) {
      HostSelector s = spec.selector();
      s.allowedHypervisors().forEach(h -> selectors.add(
          new HostSelector(h, s.arch(), s.labels(), s.hosts()).needingVolume(s.hostVolume())
              .needingTransports(s.volumeTransports()).pinning(s.pin())
              .forGuestArch(s.guestArch())));
    }
    CompletionStage<String> problem = CompletableFuture.completedFuture("");
    for (HostSelector selector : selectors) {
      CompletionStage<Scheduler.SelectorCheck> check = AskPattern.ask(scheduler,
          replyTo -> new Scheduler.CheckSelector(selector, replyTo), askTimeout,
          system.scheduler());
      problem = problem.thenCombine(check, (p, c) -> p.isEmpty() ? c.problem() : p);
    }
    return problem.thenAccept(p -> {
      if (!p.isEmpty()) {
        throw new GrpcErrors.Unsatisfiable(p);
      }
    });
  }

  @Override
  public void getExperiment(GetExperimentRequest request, StreamObserver<Experiment> responses) {
    reply(experiment(request.getExperimentId()), e -> BootPages.page(e,
        request.getBootsPageSize(), request.getBootsPageToken(), BootPages.BOOT_BYTES_PER_PAGE),
        responses);
  }

  @Override
  public void cancelExperiment(CancelExperimentRequest request, StreamObserver<Experiment> responses) {
    String id = request.getExperimentId();
    Caller caller = Caller.current();
    IllegalArgumentException bad = badId(id);
    CompletionStage<ExperimentView> cancelled = bad != null
        ? CompletableFuture.failedFuture(bad)
        : mayCancel(caller, id).thenCompose(ok -> entity(id)
            .<ExperimentView>ask(replyTo -> new ExperimentEntity.Cancel(request.getReason(), replyTo), askTimeout))
            .thenApply(v -> known(id, v));
    reply(cancelled, v -> DomainToProto.experiment(v, 0, 0), responses);
  }

  /**
   * A token below operator may cancel only experiments it submitted; other callers got here
   * because the interceptor let them (operator, or authentication off).
   */
  private CompletionStage<Void> mayCancel(Caller caller, String id) {
    if (!(caller instanceof Caller.Token t) || t.role().covers(Role.OPERATOR)) {
      return CompletableFuture.completedFuture(null);
    }
    return view(id).thenAccept(v -> {
      if (!v.spec().owner().equals(t.id())) {
        throw new GrpcErrors.NotOwner("experiment " + id + " was submitted by "
            + (v.spec().owner().isEmpty() ? "no token" : "another token")
            + "; token " + dev.abfleet.controller.security.ApiToken.shown(t.id()) + " (" + t.name()
            + ") has role " + t.role().wire() + ", and cancelling others' experiments needs role"
            + " operator");
      }
    });
  }

  @Override
  public void listHosts(ListHostsRequest request, StreamObserver<ListHostsResponse> responses) {
    if (Integer.compareUnsigned(request.getPageSize(), MAX_HOST_PAGE) > 0) {
      reply(CompletableFuture.<ListHostsResponse>failedFuture(new IllegalArgumentException("page_size "
          + Integer.toUnsignedString(request.getPageSize()) + ": at most " + MAX_HOST_PAGE
          + "; follow next_page_token for more")), r -> r, responses);
      return;
    }
    HostPage page = new HostPage(request.getPageToken(),
        request.getPageSize() == 0 ? HostPage.EVERY : request.getPageSize());
    CompletionStage<Scheduler.Hosts> hosts =
        AskPattern.ask(scheduler, replyTo -> new Scheduler.ListHosts(page, replyTo), askTimeout, system.scheduler());
    var ages = HeartbeatAges.of(system, askTimeout);
    reply(hosts.thenCombine(ages, (h, a) -> DomainToProto.hosts(h.listing(), a)), r -> r, responses);
  }

  @Override
  public void listExperiments(
      ListExperimentsRequest request, StreamObserver<ListExperimentsResponse> responses) {
    CompletionStage<ExperimentCatalog.Page> page;
    if (catalog == null) {
      page = CompletableFuture.failedFuture(new GrpcErrors.Unsatisfiable("this controller keeps"
          + " its journal in memory, which cannot be listed; run it with an H2 or PostgreSQL store"));
    } else {
      try {
        page = catalog.list(java.util.Set.copyOf(request.getStatesList()),
            pageSize(request.getPageSize()), request.getPageToken());
      } catch (IllegalArgumentException e) {
        page = CompletableFuture.failedFuture(e);
      }
    }
    reply(page, DomainToProto::experiments, responses);
  }

  /**
   * Polls the experiment and sends it whenever it changed and the watcher can take it (flow
   * control: only the latest state waits, never a queue); completes after a terminal state.
   */
  @Override
  public void watchExperiment(
      WatchExperimentRequest request, StreamObserver<ExperimentProgress> responses) {
    poll(new Watch(request.getExperimentId(), (ServerCallStreamObserver<ExperimentProgress>) responses,
        null, null, null, 0, 0, Map.of()));
  }

  /**
   * One watcher's stream and what it last saw. The place in line and the ETA come from the
   * scheduler singleton, asked at most every {@link #STANDING_EVERY} per watcher so that many
   * watchers do not crowd the scheduler's mailbox; the experiment itself is looked at each poll.
   * The view the last message was built from is kept: the entity hands out the same view until
   * its state changes, and an unchanged view and standing need no new message (building one
   * converts every boot). {@code sentAtNanos} is when the last message left (0 = none yet);
   * {@code boots} holds the last message's boots by the recorded outcome they were converted
   * from (outcomes are immutable and kept by the entity's state), so a new message converts
   * only the boots recorded since.
   */
  private record Watch(String id, ServerCallStreamObserver<ExperimentProgress> out, Experiment last,
      ExperimentView view, Scheduler.Standing standing, long standingAtNanos, long sentAtNanos,
      Map<RunOutcome, Boot> boots) {

    /** The message for {@code now} and {@code st}: the last one when neither changed. */
    Watch next(ExperimentView now, Scheduler.Standing st, long stAtNanos) {
      if (now == view && java.util.Objects.equals(st, standing) && last != null) {
        return new Watch(id, out, last, now, st, stAtNanos, sentAtNanos, boots);
      }
      Map<RunOutcome, Boot> converted = new IdentityHashMap<>();
      Function<RunOutcome, Boot> boot = o -> converted.computeIfAbsent(o,
          k -> boots.containsKey(k) ? boots.get(k) : DomainToProto.boot(k));
      Experiment message = experiment(now, st, boot);
      return new Watch(id, out, message, now, st, stAtNanos, sentAtNanos, converted);
    }

    /**
     * True while a running experiment's progress was sent less than {@link #PROGRESS_EVERY}
     * ago: a change then waits for a later poll instead of being converted and sent at once.
     */
    boolean tooSoon(ExperimentView now, long nanos) {
      return !now.terminal() && sentAtNanos != 0 && nanos - sentAtNanos < PROGRESS_EVERY.toNanos();
    }

    Watch sent(long nanos) {
      return new Watch(id, out, last, view, standing, standingAtNanos, nanos, boots);
    }
  }

  /**
   * At most one progress message per watcher this often while the experiment runs (its first
   * state and its end go at once). Each message carries the experiment with its boots, so a
   * watcher that took every change of a long, busy experiment would cost the controller a
   * conversion and a serialization of all its boots ten times a second.
   */
  static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

  static final Duration STANDING_EVERY = Duration.ofSeconds(1);

  private void poll(Watch w) {
    view(w.id()).thenCompose(view -> {
      if (w.tooSoon(view, System.nanoTime())) {
        return CompletableFuture.completedFuture(w);
      }
      boolean fresh = w.standing() != null
          && System.nanoTime() - w.standingAtNanos() < STANDING_EVERY.toNanos();
      if (view.terminal() || fresh) {
        return CompletableFuture.completedFuture(w.next(view, w.standing(), w.standingAtNanos()));
      }
      return standing(w.id()).thenApply(st -> w.next(view, st, System.nanoTime()));
    }).whenComplete((next, failure) -> {
      if (w.out().isCancelled()) {
        return;
      }
      if (failure != null) {
        w.out().onError(GrpcErrors.toStatus(failure));
        return;
      }
      Experiment now = next.last();
      if (!now.equals(w.last()) && !w.out().isReady()) {
        // A slow watcher: nothing is queued for it; it gets the latest state once it can take
        // it (conflated), so a stalled client costs one Experiment, not one per change.
        Watch unsent = new Watch(next.id(), next.out(), w.last(), w.view(), next.standing(),
            next.standingAtNanos(), w.sentAtNanos(), w.boots());
        system.scheduler().scheduleOnce(WATCH_POLL, () -> poll(unsent), system.executionContext());
        return;
      }
      Watch after = next;
      if (!now.equals(w.last())) {
        w.out().onNext(ExperimentProgress.newBuilder()
            .setExperiment(BootPages.page(now, 0, "", BootPages.BOOT_BYTES_PER_PAGE)).build());
        after = next.sent(System.nanoTime());
      }
      if (TERMINAL.contains(now.getState())) {
        w.out().onCompleted();
        return;
      }
      Watch following = after;
      system.scheduler().scheduleOnce(WATCH_POLL, () -> poll(following), system.executionContext());
    });
  }

  /** The experiment with its place in the line for hosts and its ETA. */
  private CompletionStage<Experiment> experiment(String id) {
    return view(id).thenCompose(view -> view.terminal()
        ? CompletableFuture.completedFuture(experiment(view, null))
        : standing(id).thenApply(st -> experiment(view, st)));
  }

  private CompletionStage<Scheduler.Standing> standing(String id) {
    return AskPattern.ask(scheduler, replyTo -> new Scheduler.GetStanding(id, replyTo), askTimeout,
        system.scheduler());
  }

  private static Experiment experiment(ExperimentView view, Scheduler.Standing st) {
    return experiment(view, st, DomainToProto::boot);
  }

  private static Experiment experiment(ExperimentView view, Scheduler.Standing st, Function<RunOutcome, Boot> boots) {
    if (view.terminal() || st == null) {
      return DomainToProto.experiment(view, 0, 0, boots);
    }
    return DomainToProto.experiment(view, st.queuePosition(), view.etaSeconds(st.hostsHeld()), boots);
  }

  private CompletionStage<ExperimentView> view(String id) {
    IllegalArgumentException bad = badId(id);
    if (bad != null) {
      return CompletableFuture.failedFuture(bad);
    }
    return entity(id)
        .<ExperimentView>ask(ExperimentEntity.Get::new, askTimeout)
        .thenApply(v -> known(id, v));
  }

  private static ExperimentView known(String id, ExperimentView view) {
    if (!view.known()) {
      throw new GrpcErrors.UnknownExperiment(id);
    }
    return view;
  }

  /** Why {@code id} cannot name an experiment, or null when it can. */
  private static IllegalArgumentException badId(String id) {
    return ExperimentIds.check("experiment_id", id).map(IllegalArgumentException::new).orElse(null);
  }

  private EntityRef<ExperimentEntity.Command> entity(String id) {
    return sharding.entityRefFor(ExperimentEntity.TYPE_KEY, id);
  }

  private String newId() {
    byte[] bytes = new byte[4];
    random.nextBytes(bytes);
    return "e-" + HexFormat.of().formatHex(bytes);
  }

  private static <T, R> void reply(
      CompletionStage<T> answer, Function<T, R> toProto, StreamObserver<R> responses) {
    answer.whenComplete((value, failure) -> {
      if (failure != null) {
        responses.onError(GrpcErrors.toStatus(failure));
      } else {
        R reply;
        try {
          reply = toProto.apply(value);
        } catch (RuntimeException e) {
          responses.onError(GrpcErrors.toStatus(e));
          return;
        }
        responses.onNext(reply);
        responses.onCompleted();
      }
    });
  }
}
