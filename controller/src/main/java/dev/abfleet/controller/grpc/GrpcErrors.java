package dev.abfleet.controller.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one place where failures become gRPC status codes. */
final class GrpcErrors {
  private static final Logger log = LoggerFactory.getLogger(GrpcErrors.class);

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
    // The cause stays on the server (logged by gRPC); a client sees no class names or traces.
    log.error("internal error answering a call", t);
    return Status.INTERNAL.withDescription("internal error in the controller (its log has the details);"
        + " retry, and report it if it persists").withCause(t).asRuntimeException();
  }

  /** Most problems named in one INVALID_ARGUMENT: the status must stay one readable line. */
  static final int MAX_PROBLEMS = 5;

  /** A validation failure naming the first {@link #MAX_PROBLEMS} problems and how many more there are. */
  static IllegalArgumentException invalid(List<String> problems) {
    String shown = String.join("; ", problems.subList(0, Math.min(MAX_PROBLEMS, problems.size())));
    if (shown.length() > MAX_DESCRIPTION) {
      shown = shown.substring(0, MAX_DESCRIPTION - 3) + "...";
    }
    return new IllegalArgumentException(problems.size() <= MAX_PROBLEMS ? shown
        : shown + " (and " + (problems.size() - MAX_PROBLEMS) + " more problems)");
  }

  /**
   * Most characters of problems in one status: the description travels in a response header, and
   * a client refuses headers over its metadata limit (8 KiB by default) as a transport error.
   */
  static final int MAX_DESCRIPTION = 1900;
}
