package dev.abfleet.controller.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.pattern.StatusReply;

/** The one place where failures become gRPC status codes. */
final class GrpcErrors {
  private GrpcErrors() {}

  /** Raised by the services when an experiment id was never submitted. */
  static final class UnknownExperiment extends RuntimeException {
    UnknownExperiment(String id) {
      super("unknown experiment '" + id + "'; list the known ones with `abfleet experiments list`");
    }
  }

  /** Raised by the services when a host id was never seen since the controller started. */
  static final class UnknownHost extends RuntimeException {
    UnknownHost(String id, java.util.List<String> known) {
      super("unknown host '" + id + "'; known hosts: "
          + (known.isEmpty() ? "none yet (start a worker first)" : String.join(", ", known)));
    }
  }

  /** Raised when the request is valid but the fleet cannot serve it (no host can ever match). */
  static final class Unsatisfiable extends RuntimeException {
    Unsatisfiable(String message) {
      super(message);
    }
  }

  /** Raised when a token may act only on its own experiments and this one is not its own. */
  static final class NotOwner extends RuntimeException {
    NotOwner(String message) {
      super(message);
    }
  }

  static StatusRuntimeException toStatus(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof StatusRuntimeException s) {
      return s;
    }
    if (t instanceof TimeoutException) {
      return Status.UNAVAILABLE
          .withDescription("the controller did not answer in time; retry")
          .asRuntimeException();
    }
    if (t instanceof StatusReply.ErrorMessage || t instanceof IllegalArgumentException) {
      return Status.INVALID_ARGUMENT.withDescription(t.getMessage()).asRuntimeException();
    }
    if (t instanceof Unsatisfiable) {
      return Status.FAILED_PRECONDITION.withDescription(t.getMessage()).asRuntimeException();
    }
    if (t instanceof NotOwner) {
      return Status.PERMISSION_DENIED.withDescription(t.getMessage()).asRuntimeException();
    }
    if (t instanceof UnknownExperiment || t instanceof UnknownHost) {
      return Status.NOT_FOUND.withDescription(t.getMessage()).asRuntimeException();
    }
    return Status.INTERNAL.withDescription(String.valueOf(t)).withCause(t).asRuntimeException();
  }
}
