package dev.abfleet.controller.grpc;

import dev.abfleet.controller.nightly.Nightly;
import dev.abfleet.controller.nightly.RunRecord;
import dev.abfleet.controller.nightly.Series;
import dev.abfleet.proto.fleet.v1.DecideRunRequest;
import dev.abfleet.proto.fleet.v1.GetNightlyRunRequest;
import dev.abfleet.proto.fleet.v1.GetNightlyRunResponse;
import dev.abfleet.proto.fleet.v1.GetSeriesRequest;
import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.proto.fleet.v1.ImportHistoryRequest;
import dev.abfleet.proto.fleet.v1.ImportHistoryResponse;
import dev.abfleet.proto.fleet.v1.ListSchedulesRequest;
import dev.abfleet.proto.fleet.v1.ListSchedulesResponse;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.proto.fleet.v1.NightlyServiceGrpc;
import dev.abfleet.proto.fleet.v1.TriggerScheduleRequest;
import dev.abfleet.proto.fleet.v1.TriggerScheduleResponse;
import dev.abfleet.stats.changepoint.Settings;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/** NightlyService at the edge: proto to {@link Nightly} commands and back; series are computed here. */
public final class NightlyServiceImpl implements NightlyServiceGrpc.AsyncService, io.grpc.BindableService {
  private final ActorSystem<?> system;
  private final ActorRef<Nightly.Command> nightly;
  private final Duration askTimeout;

  public NightlyServiceImpl(ActorSystem<?> system, ActorRef<Nightly.Command> nightly, Duration askTimeout) {
    this.system = system;
    this.nightly = nightly;
    this.askTimeout = askTimeout;
  }

  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(NightlyServiceGrpc.bindService(this));
  }

  @Override
  public void listSchedules(ListSchedulesRequest request, StreamObserver<ListSchedulesResponse> out) {
    reply(AskPattern.<Nightly.Command, Nightly.Schedules>ask(nightly, Nightly.ListSchedules::new, askTimeout,
        system.scheduler()), s -> {
          var b = ListSchedulesResponse.newBuilder();
          s.schedules().forEach(v -> b.addSchedules(NightlyProto.schedule(v)));
          return b.build();
        }, out);
  }

  @Override
  public void triggerSchedule(TriggerScheduleRequest request, StreamObserver<TriggerScheduleResponse> out) {
    reply(AskPattern.<Nightly.Command, StatusReply<String>>ask(nightly,
            replyTo -> new Nightly.Trigger(request.getSchedule(), replyTo), askTimeout, system.scheduler())
            .thenApply(NightlyServiceImpl::unknownSchedule),
        id -> TriggerScheduleResponse.newBuilder().setExperimentId(id).build(), out);
  }

  @Override
  public void getRun(GetNightlyRunRequest request, StreamObserver<GetNightlyRunResponse> out) {
    reply(AskPattern.<Nightly.Command, Nightly.RunStatus>ask(nightly,
        replyTo -> new Nightly.GetRun(request.getExperimentId(), replyTo), askTimeout, system.scheduler()), s -> {
          var b = GetNightlyRunResponse.newBuilder().setState(s.state());
          if (s.run() != null) {
            b.setRun(NightlyProto.run(s.run()));
          }
          return b.build();
        }, out);
  }

  @Override
  public void getSeries(GetSeriesRequest request, StreamObserver<GetSeriesResponse> out) {
    String series = request.getSeries().isEmpty() ? "center" : request.getSeries();
    double alpha = request.getAlpha() == 0 ? 0.01 : request.getAlpha();
    int minSegment = request.getMinSegment() == 0 ? 3 : request.getMinSegment();
    String bad = !series.equals("center") && !series.equals("change") ? "series " + series + ": expected center or change"
        : !(alpha > 0 && alpha < 0.5) ? "alpha " + alpha + ": expected a level between 0 and 0.5, e.g. 0.01"
        : minSegment < 2 || minSegment > 100 ? "min_segment " + minSegment + ": expected 2 to 100"
        : !(request.getMinChange() >= 0 && request.getMinChange() < 1) ? "min_change " + request.getMinChange()
            + ": expected a relative change from 0 to below 1, e.g. 0.05 for 5% (0 = the schedule's)"
        : request.getMetric().isEmpty() ? "metric is required, e.g. metadata_stat" : null;
    if (bad != null) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bad).asRuntimeException());
      return;
    }
    CompletionStage<Series> answer = AskPattern.<Nightly.Command, StatusReply<Nightly.Runs>>ask(nightly,
            replyTo -> new Nightly.GetRuns(request.getSchedule(), replyTo), askTimeout, system.scheduler())
        .thenApply(NightlyServiceImpl::unknownSchedule)
        .thenApply(runs -> Series.of(request.getSchedule(), request.getMetric(), series, runs.runs(),
            new Settings(alpha, minSegment, 999, request.getMinChange() > 0 ? request.getMinChange() : runs.minChange())));
    reply(answer, NightlyProto::series, out);
  }

  @Override
  public void importHistory(ImportHistoryRequest request, StreamObserver<ImportHistoryResponse> out) {
    List<RunRecord> runs;
    try {
      runs = request.getRunsList().stream().map(NightlyProto::record).toList();
    } catch (IllegalArgumentException e) {
      out.onError(GrpcErrors.toStatus(e));
      return;
    }
    reply(AskPattern.<Nightly.Command, Nightly.Imported>ask(nightly, replyTo -> new Nightly.Import(runs, replyTo),
        askTimeout, system.scheduler()),
        i -> ImportHistoryResponse.newBuilder().setAdded(i.added()).setSkipped(i.skipped()).build(), out);
  }

  @Override
  public void decideRun(DecideRunRequest request, StreamObserver<NightlyRun> out) {
    if (request.getExperimentId().isEmpty()) {
      out.onError(Status.INVALID_ARGUMENT.withDescription("experiment_id is required: the run's experiment id,"
          + " e.g. night-20260310T0230Z").asRuntimeException());
      return;
    }
    reply(AskPattern.<Nightly.Command, Nightly.RunDecision>ask(nightly, replyTo -> new Nightly.DecideRun(
        request.getExperimentId(), request.getAccept(), request.getReason(), replyTo), askTimeout,
        system.scheduler()), d -> switch (d.outcome()) {
          case "decided" -> NightlyProto.run(d.run());
          case "unknown" -> throw Status.NOT_FOUND.withDescription(d.problem()).asRuntimeException();
          default -> throw Status.FAILED_PRECONDITION.withDescription(d.problem()).asRuntimeException();
        }, out);
  }

  /** The actor's errors all say the schedule is unknown: NOT_FOUND. */
  private static <T> T unknownSchedule(StatusReply<T> reply) {
    if (reply.isError()) {
      throw Status.NOT_FOUND.withDescription(reply.getError().getMessage()).asRuntimeException();
    }
    return reply.getValue();
  }

  private static <T, R> void reply(CompletionStage<T> answer, Function<T, R> toProto, StreamObserver<R> out) {
    answer.whenComplete((value, failure) -> {
      if (failure != null) {
        out.onError(GrpcErrors.toStatus(failure));
        return;
      }
      R reply;
      try {
        reply = toProto.apply(value);
      } catch (RuntimeException e) {
        out.onError(GrpcErrors.toStatus(e));
        return;
      }
      out.onNext(reply);
      out.onCompleted();
    });
  }

}
