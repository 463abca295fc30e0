package dev.abfleet.controller.grpc;

import dev.abfleet.controller.bisect.BisectCatalog;
import dev.abfleet.controller.bisect.BisectEntity;
import dev.abfleet.controller.bisect.BisectRequest;
import dev.abfleet.controller.bisect.BisectState;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.security.ApiToken;
import dev.abfleet.controller.security.Caller;
import dev.abfleet.controller.security.Role;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectServiceGrpc;
import dev.abfleet.proto.fleet.v1.CancelBisectRequest;
import dev.abfleet.proto.fleet.v1.GetBisectRequest;
import dev.abfleet.proto.fleet.v1.ListBisectsRequest;
import dev.abfleet.proto.fleet.v1.ListBisectsResponse;
import dev.abfleet.proto.fleet.v1.StartBisectRequest;
import dev.abfleet.proto.fleet.v1.StartBisectResponse;
import dev.abfleet.proto.fleet.v1.WatchBisectRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/** The bisect API: each call converts proto -> command, asks the bisect entity, converts back. */
public final class BisectServiceImpl implements BisectServiceGrpc.AsyncService, io.grpc.BindableService {
  /** How often WatchBisect looks for changes: a probe takes seconds at least. */
  static final Duration WATCH_POLL = Duration.ofMillis(200);
  private static final Pattern ID = Pattern.compile(
      "[A-Za-z0-9][A-Za-z0-9_.:-]{0," + (BisectRequest.MAX_ID_LENGTH - 1) + "}");

  private final ActorSystem<?> system;
  private final ClusterSharding sharding;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Duration askTimeout;
  private final SecureRandom random = new SecureRandom();
  // Null when the journal is in memory (tests): nothing to list from.
  private final BisectCatalog catalog;

  public BisectServiceImpl(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, Duration askTimeout) {
    this.system = system;
    this.sharding = ClusterSharding.get(system);
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
    this.catalog = "jdbc-journal".equals(system.settings().config().getString("pekko.persistence.journal.plugin"))
        ? new BisectCatalog(system) : null;
  }

  /** Requests that do not parse are answered INVALID_ARGUMENT (see {@link RequestParsing}). */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(BisectServiceGrpc.bindService(this));
  }

  @Override
  public void startBisect(StartBisectRequest request, StreamObserver<StartBisectResponse> responses) {
    String id = request.getBisectId().isEmpty() ? newId() : request.getBisectId();
    IllegalArgumentException bad = badId(id);
    if (bad != null) {
      responses.onError(GrpcErrors.toStatus(new IllegalArgumentException(bad.getMessage()
          + " (or leave it empty for a generated one)")));
      return;
    }
    BisectRequest bisect = BisectProtos.request(request, Caller.current().ownerId());
    var problems = bisect.problems();
    CompletionStage<BisectEntity.Started> started = problems.isEmpty()
        ? fleetCanRun(bisect).thenCompose(ok -> entity(id).<BisectEntity.Started>askWithStatus(
            replyTo -> new BisectEntity.Start(bisect, replyTo), askTimeout))
        : CompletableFuture.failedFuture(GrpcErrors.invalid(problems));
    reply(started, s -> StartBisectResponse.newBuilder().setBisectId(s.bisectId()).build(), responses);
  }

  /** FAILED_PRECONDITION when no host known since the controller started can run the probes. */
  private CompletionStage<Void> fleetCanRun(BisectRequest bisect) {
    var selector = bisect.probeSpec(0, 1).selector();
    CompletionStage<Scheduler.SelectorCheck> check = AskPattern.ask(scheduler,
        replyTo -> new Scheduler.CheckSelector(selector, replyTo), askTimeout, system.scheduler());
    return check.thenAccept(c -> {
      if (!c.problem().isEmpty()) {
        throw new GrpcErrors.Unsatisfiable(c.problem());
      }
    });
  }

  @Override
  public void getBisect(GetBisectRequest request, StreamObserver<Bisect> responses) {
    reply(state(request.getBisectId()), BisectProtos::bisect, responses);
  }

  @Override
  public void cancelBisect(CancelBisectRequest request, StreamObserver<Bisect> responses) {
    String id = request.getBisectId();
    Caller caller = Caller.current();
    CompletionStage<BisectState> cancelled = state(id).thenCompose(s -> {
      mayCancel(caller, s);
      return entity(id).<BisectState>ask(replyTo -> new BisectEntity.Cancel(request.getReason(), replyTo),
          askTimeout);
    });
    reply(cancelled, BisectProtos::bisect, responses);
  }

  /** A token below operator may cancel only the bisects it started. */
  private static void mayCancel(Caller caller, BisectState s) {
    if (caller instanceof Caller.Token t && !t.role().covers(Role.OPERATOR)
        && !s.request().template().owner().equals(t.id())) {
      throw new GrpcErrors.NotOwner("bisect " + s.id() + " was started by another token; token "
          + ApiToken.shown(t.id()) + " (" + t.name() + ") has role " + t.role().wire()
          + ", and cancelling others' bisects needs role operator");
    }
  }

  @Override
  public void listBisects(ListBisectsRequest request, StreamObserver<ListBisectsResponse> responses) {
    CompletionStage<java.util.List<BisectCatalog.Summary>> all = catalog == null
        ? CompletableFuture.failedFuture(new GrpcErrors.Unsatisfiable("this controller keeps its journal"
            + " in memory, which cannot be listed; run it with an H2 or PostgreSQL store"))
        : catalog.list();
    reply(all, list -> {
      var b = ListBisectsResponse.newBuilder();
      list.forEach(s -> b.addBisects(BisectProtos.summary(s)));
      return b.build();
    }, responses);
  }

  /** Polls the bisect and sends it whenever it changed; completes after a terminal state. */
  @Override
  public void watchBisect(WatchBisectRequest request, StreamObserver<Bisect> responses) {
    poll(request.getBisectId(), (ServerCallStreamObserver<Bisect>) responses, null);
  }

  private void poll(String id, ServerCallStreamObserver<Bisect> out, Bisect last) {
    state(id).whenComplete((state, failure) -> {
      if (out.isCancelled()) {
        return;
      }
      if (failure != null) {
        out.onError(GrpcErrors.toStatus(failure));
        return;
      }
      Bisect now = BisectProtos.bisect(state);
      // A watcher that cannot take a message gets the latest state later (conflated), never a queue.
      boolean sent = !now.equals(last) && out.isReady();
      if (sent) {
        out.onNext(now);
      }
      if (state.terminal() && (sent || now.equals(last))) {
        out.onCompleted();
        return;
      }
      Bisect seen = sent ? now : last;
      system.scheduler().scheduleOnce(WATCH_POLL, () -> poll(id, out, seen), system.executionContext());
    });
  }

  private CompletionStage<BisectState> state(String id) {
    IllegalArgumentException bad = badId(id);
    if (bad != null) {
      return CompletableFuture.failedFuture(bad);
    }
    return entity(id).<BisectState>ask(BisectEntity.Get::new, askTimeout).thenApply(s -> {
      if (s.status() == BisectState.Status.NEW) {
        throw Status.NOT_FOUND.withDescription("unknown bisect '" + id
            + "'; list the known ones with `abfleet bisect --list`").asRuntimeException();
      }
      return s;
    });
  }

  private static IllegalArgumentException badId(String id) {
    if (id == null || id.isEmpty()) {
      return new IllegalArgumentException("bisect_id: missing; pass the id StartBisect returned"
          + " (abfleet bisect --list shows them)");
    }
    if (!ID.matcher(id).matches()) {
      return new IllegalArgumentException("bisect_id: '" + id.replaceAll("\\p{Cntrl}", "?")
          + "' is not a valid bisect id; use 1 to " + BisectRequest.MAX_ID_LENGTH
          + " of [A-Za-z0-9_.:-], starting with a letter or digit, e.g. b-1a2b3c4d");
    }
    return null;
  }

  private EntityRef<BisectEntity.Command> entity(String id) {
    return sharding.entityRefFor(BisectEntity.TYPE_KEY, id);
  }

  private String newId() {
    byte[] bytes = new byte[4];
    random.nextBytes(bytes);
    return "b-" + HexFormat.of().formatHex(bytes);
  }

  private static <T, R> void reply(CompletionStage<T> answer, Function<T, R> toProto, StreamObserver<R> responses) {
    answer.whenComplete((value, failure) -> {
      if (failure != null) {
        responses.onError(GrpcErrors.toStatus(failure));
        return;
      }
      R out;
      try {
        out = toProto.apply(value);
      } catch (RuntimeException e) {
        responses.onError(GrpcErrors.toStatus(e));
        return;
      }
      responses.onNext(out);
      responses.onCompleted();
    });
  }
}
