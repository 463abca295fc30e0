package dev.abfleet.controller.security;

import java.util.Objects;

/**
 * A hook for counting security rejections (metrics): the controller calls the listener set
 * here; by default nothing happens beyond the WARN log lines.
 */
public final class SecurityEvents {

  /** Receives rejections; implementations must be quick and must not throw. */
  public interface Listener {
    /** A worker's certificate names {@code certified} but its Hello claims {@code claimed}. */
    default void rejectedWorkerIdentity(String certified, String claimed) {}

    /** A call to {@code method} refused with UNAUTHENTICATED or PERMISSION_DENIED. */
    default void deniedCall(String method, io.grpc.Status.Code code) {}
  }

  private static volatile Listener listener = new Listener() {};

  private SecurityEvents() {}

  public static void setListener(Listener l) {
    listener = Objects.requireNonNull(l);
  }

  static Listener listener() {
    return listener;
  }

  /** Reports a Hello whose host id differs from the worker certificate's. */
  public static void rejectedWorkerIdentity(String certified, String claimed) {
    listener.rejectedWorkerIdentity(certified, claimed);
  }
}
