package dev.abfleet.cli.noise;

import dev.abfleet.controller.noise.NoiseProto;
import dev.abfleet.proto.fleet.v1.ListNoiseRequest;
import dev.abfleet.proto.fleet.v1.MergeNoiseRequest;
import dev.abfleet.proto.fleet.v1.NoiseServiceGrpc;
import dev.abfleet.stats.noise.NoiseRecord;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/** The noise records in a controller's journal (NoiseService), as clients read and write them. */
public final class ControllerNoise {
  /** How long a noise call may take: the ledger answers from memory. */
  private static final long DEADLINE_S = 30;

  private ControllerNoise() {}

  /**
   * Every record of the controller at {@code target}, read once. A controller that does not serve
   * ListNoise (older than this client) gives {@code local} instead, with a warning on {@code err}.
   *
   * @throws StatusRuntimeException any other failure of the call
   */
  public static NoiseSource read(ManagedChannel channel, String target, NoiseSource local, PrintStream err) {
    try {
      var list = NoiseServiceGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_S, TimeUnit.SECONDS)
          .listNoise(ListNoiseRequest.getDefaultInstance());
      return NoiseSource.of(list.getRecordsList().stream().map(NoiseProto::fromProto).toList(),
          "the controller at " + target);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        throw e;
      }
      err.println("abfleet: warning: the controller at " + target + " keeps no noise records (it does not serve"
          + " ListNoise: older than this client); quoting the records in " + local.where() + " instead");
      return local;
    }
  }

  /**
   * Merges {@code measured} into its class's record in the controller's journal and returns the
   * merged record.
   *
   * @throws StatusRuntimeException the controller refused (PERMISSION_DENIED: an operator token is
   *     needed; UNIMPLEMENTED: it is older than this client) or did not answer
   */
  public static NoiseRecord merge(ManagedChannel channel, NoiseRecord measured) {
    return NoiseProto.fromProto(NoiseServiceGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_S, TimeUnit.SECONDS)
        .mergeNoise(MergeNoiseRequest.newBuilder().setRecord(NoiseProto.toProto(measured)).build()).getRecord());
  }
}
