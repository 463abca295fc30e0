package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/** Requests are parsed once, from the transport's stream, with the method's own marshaller. */
class RequestParsingTest {

  private static ServerMethodDefinition<?, ?> connect() {
    var service = RequestParsing.clear(WorkerServiceGrpc.bindService(new WorkerServiceGrpc.WorkerServiceImplBase() { }));
    return service.getMethod(WorkerServiceGrpc.getConnectMethod().getFullMethodName());
  }

  @Test
  void parsesAHeartbeatOnceIntoItsMessage() {
    WorkerMessage heartbeat = WorkerMessage.newBuilder()
        .setHeartbeat(Heartbeat.newBuilder().setRunningRunId("run-7")).build();

    Object parsed = connect().getMethodDescriptor().getRequestMarshaller()
        .parse(new ByteArrayInputStream(heartbeat.toByteArray()));

    // The handler gets this message as it is: no copy of the bytes is kept to parse again.
    assertThat(parsed).isInstanceOf(RequestParsing.Parsed.class);
    assertThat(((RequestParsing.Parsed<?>) parsed).request()).isEqualTo(heartbeat);
    assertThat(((RequestParsing.Parsed<?>) parsed).failure()).isNull();
  }

  @Test
  void keepsAParseFailureForTheCallToAnswerInvalidArgument() {
    byte[] foreign = {(byte) 0x0a, (byte) 0x7f, 1, 2};

    var parsed = (RequestParsing.Parsed<?>) connect().getMethodDescriptor().getRequestMarshaller()
        .parse(new ByteArrayInputStream(foreign));

    assertThat(parsed.request()).isNull();
    assertThat(RequestParsing.unparsable(WorkerServiceGrpc.getConnectMethod(), parsed.failure()).getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
  }
}
