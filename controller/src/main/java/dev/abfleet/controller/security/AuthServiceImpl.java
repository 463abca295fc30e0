package dev.abfleet.controller.security;

import dev.abfleet.proto.fleet.v1.AuthServiceGrpc;
import dev.abfleet.proto.fleet.v1.CreateTokenRequest;
import dev.abfleet.proto.fleet.v1.CreatedToken;
import dev.abfleet.proto.fleet.v1.ListTokensRequest;
import dev.abfleet.proto.fleet.v1.ListTokensResponse;
import dev.abfleet.proto.fleet.v1.RevokeTokenRequest;
import dev.abfleet.proto.fleet.v1.TokenInfo;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** AuthService: operators create, list and revoke API tokens (the interceptor checks the role). */
public final class AuthServiceImpl extends AuthServiceGrpc.AuthServiceImplBase {
  private static final Logger log = LoggerFactory.getLogger(AuthServiceImpl.class);
  static final int MAX_NAME = 64;

  private final TokenStore tokens;
  private final Clock clock;

  public AuthServiceImpl(TokenStore tokens, Clock clock) {
    this.tokens = tokens;
    this.clock = clock;
  }

  @Override
  public void createToken(CreateTokenRequest request, StreamObserver<CreatedToken> responses) {
    String name = request.getName().strip();
    if (name.isEmpty() || name.length() > MAX_NAME || !name.matches("[\\p{Graph} ]+")) {
      responses.onError(Status.INVALID_ARGUMENT.withDescription("token name '" + request.getName()
          + "': expected 1 to " + MAX_NAME + " printable characters, e.g. ci-nightly")
          .asRuntimeException());
      return;
    }
    Role role;
    try {
      role = Role.of(request.getRole());
    } catch (IllegalArgumentException e) {
      responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    answer(responses, () -> {
      TokenStore.Created c = tokens.create(name, role, clock.instant());
      log.info("token {} ({}, role {}) created by {}", c.token(), name, role.wire(), Caller.current());
      return CreatedToken.newBuilder().setId(c.token().id()).setToken(c.token().value())
          .setRole(role.wire()).setName(name).build();
    });
  }

  @Override
  public void listTokens(ListTokensRequest request, StreamObserver<ListTokensResponse> responses) {
    answer(responses, () -> {
      var b = ListTokensResponse.newBuilder();
      tokens.list().forEach(t -> b.addTokens(info(t)));
      return b.build();
    });
  }

  @Override
  public void revokeToken(RevokeTokenRequest request, StreamObserver<TokenInfo> responses) {
    String id = ApiToken.parse(request.getId()).map(ApiToken::id).orElse(request.getId().strip());
    if (!ApiToken.isId(id)) {
      responses.onError(Status.INVALID_ARGUMENT.withDescription("token id '" + request.getId()
          + "': expected 12 hex digits as `abfleet tokens list` shows").asRuntimeException());
      return;
    }
    answer(responses, () -> {
      TokenStore.StoredToken revoked = tokens.revoke(id, clock.instant())
          .orElseThrow(() -> Status.NOT_FOUND.withDescription("no token with id " + id
              + "; `abfleet tokens list` shows them").asRuntimeException());
      log.info("token {} revoked by {}", ApiToken.shown(id), Caller.current());
      return info(revoked);
    });
  }

  private static TokenInfo info(TokenStore.StoredToken t) {
    return TokenInfo.newBuilder().setId(t.id()).setName(t.name()).setRole(t.role().wire())
        .setCreatedAtMs(t.createdAt().toEpochMilli())
        .setRevokedAtMs(t.revoked() ? t.revokedAt().toEpochMilli() : 0).build();
  }

  private static <T> void answer(StreamObserver<T> responses, Supplier<T> work) {
    T value;
    try {
      value = work.get();
    } catch (io.grpc.StatusRuntimeException e) {
      responses.onError(e);
      return;
    } catch (IllegalStateException e) {
      responses.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    responses.onNext(value);
    responses.onCompleted();
  }
}
