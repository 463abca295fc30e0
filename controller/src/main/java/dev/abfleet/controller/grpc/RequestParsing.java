package dev.abfleet.controller.grpc;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Requests that do not parse (a string field that is not UTF-8, truncated or foreign bytes) are
 * answered INVALID_ARGUMENT naming the problem and the fix. grpc-java answers a request
 * marshaller that throws with {@code UNKNOWN: Application error processing RPC}, which tells a
 * client nothing; so every method is re-bound to a marshaller that parses each request once, with
 * the method's own marshaller, and keeps the failure as a value instead of throwing; the request
 * or its failure reaches {@link Parsing} before the method's handler. The descriptors
 * are rebuilt (same names and schema) because a service definition accepts only its own
 * descriptor's method instances; grpc-java's {@code ServerInterceptors.useMarshalledMessages}
 * does the same.
 */
public final class RequestParsing {
  private RequestParsing() {}

  /** A message as its bytes, unparsed: what tests send when no stub would. */
  static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (java.io.IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** A request as parsed by its method's marshaller: the message, or why it did not parse. */
  record Parsed<Q>(Q request, RuntimeException failure) {}

  /**
   * Parses straight from the transport's stream, once; a failure is kept for the listener to
   * answer. Sending ({@code stream}) is only for a client, which these descriptors never serve.
   */
  private static <Q> MethodDescriptor.Marshaller<Parsed<Q>> parsing(MethodDescriptor<Q, ?> typed) {
    return new MethodDescriptor.Marshaller<>() {
      @Override
      public InputStream stream(Parsed<Q> value) {
        return typed.streamRequest(value.request());
      }

      @Override
      public Parsed<Q> parse(InputStream stream) {
        try {
          return new Parsed<>(typed.parseRequest(stream), null);
        } catch (RuntimeException e) {
          return new Parsed<>(null, e);
        }
      }
    };
  }

  /** {@code service} with every request parsed before its handler runs. */
  public static ServerServiceDefinition clear(ServerServiceDefinition service) {
    ServiceDescriptor old = service.getServiceDescriptor();
    ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(old.getName())
        .setSchemaDescriptor(old.getSchemaDescriptor());
    java.util.List<ServerMethodDefinition<?, ?>> methods = new java.util.ArrayList<>();
    for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
      ServerMethodDefinition<?, ?> raw = rebind(m);
      methods.add(raw);
      descriptor.addMethod(raw.getMethodDescriptor());
    }
    ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(out::addMethod);
    return out.build();
  }

  private static <Q, R> ServerMethodDefinition<Parsed<Q>, R> rebind(ServerMethodDefinition<Q, R> m) {
    MethodDescriptor<Q, R> typed = m.getMethodDescriptor();
    MethodDescriptor<Parsed<Q>, R> raw = typed.toBuilder(parsing(typed), typed.getResponseMarshaller()).build();
    ServerCallHandler<Parsed<Q>, R> handler = (call, headers) -> new Parsing<>(call, typed,
        m.getServerCallHandler().startCall(new Typed<>(call, typed), headers));
    return ServerMethodDefinition.create(raw, handler);
  }

  /** What a client reads when its request does not parse. */
  static Status unparsable(MethodDescriptor<?, ?> method, RuntimeException e) {
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    String why = String.valueOf(cause.getMessage());
    if (why.contains("UTF-8")) {
      return Status.INVALID_ARGUMENT.withDescription(method.getBareMethodName() + ": a string field is not valid"
          + " UTF-8; send text as UTF-8");
    }
    return Status.INVALID_ARGUMENT.withDescription(method.getBareMethodName() + ": the request does not parse as"
        + " the message abfleet's .proto files define (" + why.replaceAll("\\p{Cntrl}", " ") + "); build it from"
        + " those files");
  }

  /** The call as the typed handler sees it: only its descriptor differs from the raw call. */
  private static final class Typed<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private final MethodDescriptor<Q, R> method;

    @SuppressWarnings("unchecked")
    Typed(ServerCall<Parsed<Q>, R> call, MethodDescriptor<Q, R> method) {
      // Only requests differ in type, and they never flow through the call, only the listener.
      super((ServerCall<Q, R>) (ServerCall<?, R>) call);
      this.method = method;
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
      return method;
    }
  }

  /** Parses each request; the first that does not parse closes the call, and no more reach the handler. */
  private static final class Parsing<Q, R> extends ServerCall.Listener<Parsed<Q>> {
    private final ServerCall<Parsed<Q>, R> call;
    private final MethodDescriptor<Q, R> method;
    private final ServerCall.Listener<Q> handler;
    private boolean closed;

    Parsing(ServerCall<Parsed<Q>, R> call, MethodDescriptor<Q, R> method, ServerCall.Listener<Q> handler) {
      this.call = call;
      this.method = method;
      this.handler = handler;
    }

    @Override
    public void onMessage(Parsed<Q> parsed) {
      if (closed) {
        return;
      }
      if (parsed.failure() != null) {
        closed = true;
        call.close(unparsable(method, parsed.failure()), new Metadata());
        return;
      }
      handler.onMessage(parsed.request());
    }

    @Override
    public void onHalfClose() {
      if (!closed) {
        handler.onHalfClose();
      }
    }

    @Override
    public void onCancel() {
      handler.onCancel();
    }

    @Override
    public void onComplete() {
      handler.onComplete();
    }

    @Override
    public void onReady() {
      handler.onReady();
    }
  }
}
