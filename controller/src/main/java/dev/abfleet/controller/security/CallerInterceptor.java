package dev.abfleet.controller.security;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Establishes who makes each call ({@link Caller#current()}) and refuses calls the caller may not
 * make: a worker by the client certificate the TLS handshake verified against the fleet's CA, a
 * client by its {@code authorization: Bearer <token>} header. What each method needs is in
 * {@link MethodRoles}.
 */
public final class CallerInterceptor implements ServerInterceptor {
  /** Token ids remembered as accepted; past this many, new ones are checked but not remembered. */
  private static final int MAX_ACCEPTED_IDS = 100_000;
  private final java.util.Set<String> accepted = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static final Logger log = LoggerFactory.getLogger(CallerInterceptor.class);
  /** The header clients send their token in. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  static final String NO_TOKEN = "no API token: pass --token-file FILE or set ABFLEET_TOKEN;"
      + " create one with `abfleet tokens create`";

  private final Security security;
  private final TokenStore tokens;

  public CallerInterceptor(Security security, TokenStore tokens) {
    this.security = security;
    this.tokens = tokens;
  }

  /** The caller, or the status that refuses the call. */
  record Decision(Caller caller, Status denial) {
    static Decision allow(Caller c) {
      return new Decision(c, null);
    }

    static Decision deny(Status s) {
      return new Decision(null, s);
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    Decision d;
    try {
      d = decide(method, peerHostId(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION)),
          headers.get(AUTHORIZATION));
    } catch (IllegalStateException e) {
      d = Decision.deny(Status.UNAVAILABLE.withDescription(
          "cannot check the API token now: " + e.getMessage()));
    }
    if (d.denial() != null) {
      call.close(d.denial(), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    return Contexts.interceptCall(Context.current().withValue(Caller.KEY, d.caller()), call,
        headers, next);
  }

  /**
   * Who calls {@code method} and whether they may.
   *
   * @param certifiedHost the host id of a verified client certificate, if one was presented
   * @param authorization the authorization header, or null
   */
  Decision decide(String method, Optional<String> certifiedHost, String authorization) {
    Optional<MethodRoles.Need> need = MethodRoles.of(method);
    boolean tls = security.tls();
    boolean tokensOn = security.auth() == Security.AuthMode.TOKENS;
    if (need.isEmpty()) {
      return tls || tokensOn
          ? Decision.deny(Status.PERMISSION_DENIED.withDescription(method
              + " has no access rule on this controller; nobody may call it"))
          : Decision.allow(Caller.ANONYMOUS);
    }
    if (certifiedHost.isPresent()) {
      Caller worker = new Caller.Worker(certifiedHost.get());
      if (need.get().workers() || !tokensOn) {
        return Decision.allow(worker);
      }
      if (authorization == null) {
        return Decision.deny(Status.PERMISSION_DENIED.withDescription(method
            + " needs an API token with role " + need.get().role().wire()
            + "; a worker certificate (host " + certifiedHost.get() + ") does not grant it"));
      }
    }
    if (need.get().workerOnly()) {
      return tls
          ? Decision.deny(Status.UNAUTHENTICATED.withDescription(method + " needs a worker"
              + " certificate signed by the fleet's CA; start the worker with --ca, --cert and"
              + " --key (`abfleet certs issue --worker HOST_ID` makes them)"))
          : Decision.allow(Caller.ANONYMOUS);
    }
    if (!tokensOn) {
      return Decision.allow(Caller.ANONYMOUS);
    }
    return token(method, need.get().role(), authorization);
  }

  private Decision token(String method, Role needed, String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return Decision.deny(Status.UNAUTHENTICATED.withDescription(NO_TOKEN));
    }
    String value = authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        ? authorization.substring(7).strip() : authorization.strip();
    Optional<ApiToken> parsed = ApiToken.parse(value);
    if (parsed.isEmpty()) {
      return Decision.deny(Status.UNAUTHENTICATED.withDescription("the API token is not in the"
          + " form abf_<id>_<secret>; pass the whole token `abfleet tokens create` printed"));
    }
    ApiToken token = parsed.get();
    Optional<TokenStore.StoredToken> stored = tokens.find(token.id());
    if (stored.isEmpty() || !token.matches(stored.get().salt(), stored.get().hash())) {
      return Decision.deny(Status.UNAUTHENTICATED.withDescription("token " + token
          + " is not known to this controller; create one with `abfleet tokens create`"));
    }
    TokenStore.StoredToken t = stored.get();
    if (t.revoked()) {
      return Decision.deny(Status.UNAUTHENTICATED.withDescription("token " + token
          + " is revoked; ask an operator for a new one (`abfleet tokens create`)"));
    }
    if (!t.role().covers(needed)) {
      return Decision.deny(Status.PERMISSION_DENIED.withDescription(method + " needs role "
          + needed.wire() + "; token " + token + " (" + t.name() + ") has role " + t.role().wire()));
    }
    if (accepted.size() < MAX_ACCEPTED_IDS) {
      accepted.add(t.id());
    }
    return Decision.allow(new Caller.Token(t.id(), t.name(), t.role()));
  }

  /**
   * Whether {@code id} (abf_ and 12 hex digits) passed the token check on this node before, for
   * the rate limiter's choice of bucket; every id does when client auth is off. A revoked id
   * stays known here: the check itself still refuses it.
   */
  public boolean knownTokenId(String id) {
    return security.auth() != Security.AuthMode.TOKENS || accepted.contains(id);
  }

  /**
   * Whether a scrape of /metrics with this Authorization header may read: any token with role
   * read or more when tokens are on; anyone otherwise.
   */
  public boolean mayReadMetrics(Optional<String> authorization) {
    if (security.auth() != Security.AuthMode.TOKENS) {
      return true;
    }
    try {
      return token("GET /metrics", Role.READ, authorization.orElse(null)).denial() == null;
    } catch (IllegalStateException e) {
      log.warn("cannot check a /metrics token now: {}", e.getMessage());
      return false;
    }
  }

  /** The host id of the peer's verified certificate, if it presented one. */
  static Optional<String> peerHostId(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      if (chain.length > 0 && chain[0] instanceof X509Certificate leaf) {
        Optional<String> id = PeerCertificates.hostId(leaf);
        if (id.isEmpty()) {
          log.warn("client certificate {} names no host id; treated as no certificate",
              leaf.getSubjectX500Principal());
        }
        return id;
      }
    } catch (SSLPeerUnverifiedException e) {
      // No client certificate: a token client.
    }
    return Optional.empty();
  }
}
