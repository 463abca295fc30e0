package dev.abfleet.controller.security;

import io.grpc.Context;

/**
 * Who makes the current gRPC call, as {@link CallerInterceptor} established it: a worker by its
 * verified client certificate, a client by its API token, or nobody in particular.
 */
public sealed interface Caller {
  /** The key under which the interceptor stores the caller in the call's gRPC context. */
  Context.Key<Caller> KEY = Context.key("abfleet-caller");

  /** A worker whose certificate, signed by the fleet's CA, names {@code hostId}. */
  record Worker(String hostId) implements Caller {}

  /** A client with a valid, unrevoked API token. */
  record Token(String id, String name, Role role) implements Caller {}

  /** No certificate and no token (or authentication is off). */
  record Anonymous() implements Caller {}

  Caller ANONYMOUS = new Anonymous();

  /** The caller of the current call; anonymous outside a call or without the interceptor. */
  static Caller current() {
    Caller c = KEY.get();
    return c == null ? ANONYMOUS : c;
  }

  /** The owner id recorded with what this caller submits: a token's id, empty otherwise. */
  default String ownerId() {
    return this instanceof Token t ? t.id() : "";
  }
}
