package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.Reconnect;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.DecideRunRequest;
import dev.abfleet.proto.fleet.v1.GetNightlyRunRequest;
import dev.abfleet.proto.fleet.v1.GetNightlyRunResponse;
import dev.abfleet.proto.fleet.v1.GetSeriesRequest;
import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.proto.fleet.v1.ImportHistoryRequest;
import dev.abfleet.proto.fleet.v1.ImportHistoryResponse;
import dev.abfleet.proto.fleet.v1.ListSchedulesRequest;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.proto.fleet.v1.NightlyServiceGrpc;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import dev.abfleet.proto.fleet.v1.TriggerScheduleRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The CLI's side of NightlyService. Calls ride out a controller restart ({@link Reconnect});
 * NOT_FOUND, INVALID_ARGUMENT and FAILED_PRECONDITION are the user's to fix and become a {@link Problem}.
 */
public final class NightlyClient implements AutoCloseable {
  private final ManagedChannel channel;
  private final NightlyServiceGrpc.NightlyServiceBlockingStub stub;
  private final Reconnect reconnect;

  /** @param target an address checked by {@link ControllerAddress#check} */
  public NightlyClient(String target) {
    this.channel = ControllerAddress.channel(target);
    this.stub = NightlyServiceGrpc.newBlockingStub(channel);
    this.reconnect = Reconnect.standard(target);
  }

  public List<ScheduleInfo> schedules() {
    return call(() -> stub().listSchedules(ListSchedulesRequest.getDefaultInstance()).getSchedulesList());
  }

  /** Runs the schedule now; returns the run's experiment id. */
  public String trigger(String schedule) {
    return call(() -> stub().triggerSchedule(TriggerScheduleRequest.newBuilder().setSchedule(schedule).build())
        .getExperimentId());
  }

  public GetNightlyRunResponse run(String experimentId) {
    return call(() -> stub().getRun(GetNightlyRunRequest.newBuilder().setExperimentId(experimentId).build()));
  }

  public GetSeriesResponse series(GetSeriesRequest request) {
    return call(() -> stub().getSeries(request));
  }

  public ImportHistoryResponse importRuns(List<NightlyRun> runs) {
    return call(() -> stub().importHistory(ImportHistoryRequest.newBuilder().addAllRuns(runs).build()));
  }

  /** An operator's decision on a held run; returns the run as decided. */
  public NightlyRun decide(String experimentId, boolean accept, String reason) {
    return call(() -> stub().decideRun(DecideRunRequest.newBuilder().setExperimentId(experimentId).setAccept(accept)
        .setReason(reason).build()));
  }

  private NightlyServiceGrpc.NightlyServiceBlockingStub stub() {
    return stub.withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private <T> T call(Supplier<T> call) {
    try {
      return reconnect.call(call);
    } catch (StatusRuntimeException e) {
      Status.Code c = e.getStatus().getCode();
      if (c == Status.Code.NOT_FOUND || c == Status.Code.INVALID_ARGUMENT || c == Status.Code.FAILED_PRECONDITION) {
        throw new Problem(e.getStatus().getDescription());
      }
      if (c == Status.Code.UNIMPLEMENTED) {
        throw new Problem("the controller does not run nightly schedules (an older abfleet); upgrade it");
      }
      throw e;
    }
  }

  @Override
  public void close() {
    ControllerAddress.close(channel);
  }
}
