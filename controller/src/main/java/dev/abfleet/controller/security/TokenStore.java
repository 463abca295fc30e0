package dev.abfleet.controller.security;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where API tokens live: the controller's JDBC database ({@link JdbcTokenStore}), shared by all
 * nodes so a revoke takes effect on every node at once, or memory ({@link InMemoryTokenStore}).
 * Only salted hashes are stored.
 */
public interface TokenStore {

  /**
   * A stored token.
   *
   * @param revokedAt null while the token is valid
   */
  record StoredToken(String id, String name, Role role, byte[] salt, byte[] hash,
      Instant createdAt, Instant revokedAt) {
    public boolean revoked() {
      return revokedAt != null;
    }
  }

  /** A token just created: {@code token} is the only copy of its secret. */
  record Created(ApiToken token, StoredToken stored) {}

  /** Creates and stores a token with a new id and secret. */
  default Created create(String name, Role role, Instant now) {
    ApiToken token = ApiToken.generate();
    byte[] salt = ApiToken.newSalt();
    StoredToken stored = new StoredToken(token.id(), name, role, salt,
        ApiToken.hash(salt, token.secret()), now, null);
    insert(stored);
    return new Created(token, stored);
  }

  /** Adds a token; its id is new. */
  void insert(StoredToken token);

  /** The token with {@code id}, revoked or not. */
  Optional<StoredToken> find(String id);

  /** All tokens, oldest first. */
  List<StoredToken> list();

  /** Marks the token revoked at {@code now} (a second revoke keeps the first time); empty if unknown. */
  Optional<StoredToken> revoke(String id, Instant now);

  /** True when no token has ever been created (revoked ones count). */
  boolean isEmpty();
}
