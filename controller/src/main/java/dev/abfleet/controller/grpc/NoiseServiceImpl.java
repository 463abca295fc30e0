package dev.abfleet.controller.grpc;

import dev.abfleet.controller.noise.NoiseLedger;
import dev.abfleet.controller.noise.NoiseProto;
import dev.abfleet.proto.fleet.v1.ListNoiseRequest;
import dev.abfleet.proto.fleet.v1.ListNoiseResponse;
import dev.abfleet.proto.fleet.v1.MergeNoiseRequest;
import dev.abfleet.proto.fleet.v1.MergeNoiseResponse;
import dev.abfleet.proto.fleet.v1.NoiseServiceGrpc;
import dev.abfleet.stats.noise.NoiseRecord;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/** NoiseService at the edge: proto to {@link NoiseLedger} commands and back. */
public final class NoiseServiceImpl implements NoiseServiceGrpc.AsyncService, io.grpc.BindableService {
  private final ActorSystem<?> system;
  private final ActorRef<NoiseLedger.Command> ledger;
  private final Duration askTimeout;

  public NoiseServiceImpl(ActorSystem<?> system, ActorRef<NoiseLedger.Command> ledger, Duration askTimeout) {
    this.system = system;
    this.ledger = ledger;
    this.askTimeout = askTimeout;
  }

  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(NoiseServiceGrpc.bindService(this));
  }

  @Override
  public void mergeNoise(MergeNoiseRequest request, StreamObserver<MergeNoiseResponse> out) {
    NoiseRecord measured;
    try {
      if (!request.hasRecord()) {
        throw new IllegalArgumentException("MergeNoise without a record; send the measured noise record");
      }
      measured = NoiseProto.fromProto(request.getRecord());
    } catch (IllegalArgumentException e) {
      out.onError(GrpcErrors.toStatus(e));
      return;
    }
    // An invalid record fails the ask with the ledger's StatusReply error: INVALID_ARGUMENT.
    reply(AskPattern.<NoiseLedger.Command, NoiseLedger.Merged>askWithStatus(ledger,
            replyTo -> new NoiseLedger.MergeNoise(measured, replyTo), askTimeout, system.scheduler()),
        m -> MergeNoiseResponse.newBuilder().setRecord(NoiseProto.toProto(m.record())).build(), out);
  }

  @Override
  public void listNoise(ListNoiseRequest request, StreamObserver<ListNoiseResponse> out) {
    reply(AskPattern.<NoiseLedger.Command, NoiseLedger.Records>ask(ledger, NoiseLedger.ListNoise::new, askTimeout,
        system.scheduler()), r -> {
          var b = ListNoiseResponse.newBuilder();
          r.records().forEach(x -> b.addRecords(NoiseProto.toProto(x)));
          return b.build();
        }, out);
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
