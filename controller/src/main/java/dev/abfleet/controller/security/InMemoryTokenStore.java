package dev.abfleet.controller.security;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Tokens in memory, for a controller with the in-memory journal (tests). */
public final class InMemoryTokenStore implements TokenStore {
  private final Map<String, StoredToken> tokens = new ConcurrentHashMap<>();

  @Override
  public void insert(StoredToken token) {
    if (tokens.putIfAbsent(token.id(), token) != null) {
      throw new IllegalStateException("token id " + token.id() + " exists");
    }
  }

  @Override
  public Optional<StoredToken> find(String id) {
    return Optional.ofNullable(tokens.get(id));
  }

  @Override
  public List<StoredToken> list() {
    List<StoredToken> all = new ArrayList<>(tokens.values());
    all.sort(Comparator.comparing(StoredToken::createdAt).thenComparing(StoredToken::id));
    return all;
  }

  @Override
  public Optional<StoredToken> revoke(String id, Instant now) {
    return Optional.ofNullable(tokens.computeIfPresent(id, (k, t) -> t.revoked() ? t
        : new StoredToken(t.id(), t.name(), t.role(), t.salt(), t.hash(), t.createdAt(), now)));
  }

  @Override
  public boolean isEmpty() {
    return tokens.isEmpty();
  }
}
