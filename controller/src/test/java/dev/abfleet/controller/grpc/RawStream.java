package dev.abfleet.controller.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A client stream of any method that sends bytes as they are, so that a test can send what no
 * generated stub would: invalid UTF-8, garbage, messages out of order.
 */
final class RawStream {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = RequestParsing.BYTES;

  private final StreamObserver<byte[]> requests;
  private final CompletableFuture<StatusRuntimeException> ended = new CompletableFuture<>();

  private RawStream(Channel channel, MethodDescriptor<byte[], byte[]> method) {
    StreamObserver<byte[]> responses = new StreamObserver<>() {
      @Override
      public void onNext(byte[] value) {}

      @Override
      public void onError(Throwable t) {
        ended.complete(t instanceof StatusRuntimeException s ? s
            : io.grpc.Status.fromThrowable(t).asRuntimeException());
      }

      @Override
      public void onCompleted() {
        ended.complete(null);
      }
    };
    this.requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(method, CallOptions.DEFAULT), responses);
  }

  static RawStream open(Channel channel, MethodDescriptor<?, ?> method) {
    return new RawStream(channel, method.toBuilder(BYTES, BYTES).build());
  }

  void send(byte[] message) {
    requests.onNext(message);
  }

  void complete() {
    requests.onCompleted();
  }

  /** The status the stream failed with; fails the test when it ends well or not within 10 s. */
  StatusRuntimeException awaitError() throws Exception {
    StatusRuntimeException e = ended.get(10, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError("the stream ended without an error");
    }
    return e;
  }

  /** The error the stream failed with within {@code wait}, or null when it is still open or ended well. */
  StatusRuntimeException errorWithin(Duration wait) throws Exception {
    try {
      return ended.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return null;
    }
  }
}
