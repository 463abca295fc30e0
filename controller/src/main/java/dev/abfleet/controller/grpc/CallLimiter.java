package dev.abfleet.controller.grpc;

import dev.abfleet.model.Limits;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.http.ControllerMetrics;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Limits how many calls each client may start (a token bucket per client; a stream counts as one
 * call) and counts every call by method and status for {@code /metrics}. The client is the API
 * token id of the {@code authorization} header when there is one, else the peer's IP address.
 * This runs before the token check; a token id the check has not yet accepted on this node (a
 * new client's first calls, or ids made up to get fresh buckets) also takes from its IP
 * address's bucket, {@value #ADDRESS_FACTOR} times as large, so made-up ids gain nothing while
 * known clients behind one address keep their own limits.
 */
public final class CallLimiter implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  /** Buckets kept before the idle (full) ones are forgotten: bounds memory under many clients. */
  static final int MAX_CLIENTS = 10_000;
  /** How many clients' worth of calls one IP address may start. */
  static final int ADDRESS_FACTOR = 4;
  private static final String TOKEN_KEY = "token:";

  private final Limits limits;
  private final ControllerMetrics metrics;
  private final Predicate<String> knownTokenId;
  private final LongSupplier nanoTime;
  private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

  /**
   * @param knownTokenId whether a token id (abf_ and 12 hex digits) passed the token check on
   *     this node before; with client auth off every id counts as known (nothing is checked)
   */
  public CallLimiter(Limits limits, ControllerMetrics metrics,
      Predicate<String> knownTokenId) {
    this(limits, metrics, knownTokenId, System::nanoTime);
  }

  CallLimiter(Limits limits, ControllerMetrics metrics,
      Predicate<String> knownTokenId, LongSupplier nanoTime) {
    this.limits = limits;
    this.metrics = metrics;
    this.knownTokenId = knownTokenId;
    this.nanoTime = nanoTime;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    long started = nanoTime.getAsLong();
    ServerCall<Q, R> counted = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        metrics.callEnded(method, status.getCode().name(),
            java.time.Duration.ofNanos(nanoTime.getAsLong() - started));
        super.close(status, trailers);
      }
    };
    if (!admit(headers.get(AUTHORIZATION), call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR))) {
      metrics.rateLimited("call");
      counted.close(Status.RESOURCE_EXHAUSTED.withDescription("rate limit: at most "
          + format(limits.callsPerSecond()) + " calls/s per client (burst " + limits.burst()
          + "); retry later"), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return next.startCall(counted, headers);
  }

  /** Takes a call from the client's bucket (and its address's); false = over the limit. */
  boolean admit(String authorization, SocketAddress peer) {
    String client = clientKey(authorization, peer);
    if (!client.startsWith(TOKEN_KEY) || knownTokenId.test(client.substring(TOKEN_KEY.length()))) {
      return bucket(client, 1).tryTake();
    }
    return bucket("address-of-unknown-tokens:" + clientKey(null, peer), ADDRESS_FACTOR).tryTake()
        && bucket(client, 1).tryTake();
  }

  private TokenBucket bucket(String key, int clients) {
    if (buckets.size() >= MAX_CLIENTS) {
      buckets.values().removeIf(TokenBucket::idle);
    }
    return buckets.computeIfAbsent(key, c -> new TokenBucket(limits.callsPerSecond() * clients,
        (int) Math.min(Integer.MAX_VALUE, (long) limits.burst() * clients), nanoTime));
  }

  /**
   * "token:abf_0123456789ab" for {@code Bearer abf_0123456789ab_secret} (the part before the
   * second underscore), else "ip:" and the peer's address.
   */
  static String clientKey(String authorization, SocketAddress peer) {
    if (authorization != null) {
      String token = authorization.strip();
      if (token.regionMatches(true, 0, "Bearer ", 0, 7)) {
        token = token.substring(7).strip();
      }
      int second = token.indexOf('_', token.indexOf('_') + 1);
      if (token.startsWith("abf_") && second > 0) {
        return TOKEN_KEY + token.substring(0, second);
      }
    }
    if (peer instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return "ip:" + inet.getAddress().getHostAddress();
    }
    return "peer:" + peer;
  }

  private static String format(double perSecond) {
    return perSecond == Math.rint(perSecond) ? Long.toString((long) perSecond) : Double.toString(perSecond);
  }
}
