package dev.abfleet.controller.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first operator token: with token auth and an empty token store, the controller creates an
 * operator token named "bootstrap" and writes it to a file only its user may read, so the
 * operator can create the others. The token itself is never logged.
 */
public final class TokenBootstrap {
  private static final Logger log = LoggerFactory.getLogger(TokenBootstrap.class);
  public static final String NAME = "bootstrap";

  private TokenBootstrap() {}

  /** Creates and writes the bootstrap token when needed; returns its id if it did. */
  public static Optional<String> ensure(Security security, TokenStore tokens) {
    if (security.auth() != Security.AuthMode.TOKENS || !tokens.isEmpty()) {
      return Optional.empty();
    }
    TokenStore.Created created = tokens.create(NAME, Role.OPERATOR, Instant.now());
    write(security.bootstrapTokenFile(), created.token().value());
    log.info("no API token existed: created operator token {} ({}), written to {}",
        created.token(), NAME, security.bootstrapTokenFile());
    return Optional.of(created.token().id());
  }

  /** Writes {@code token} to {@code file} with mode 0600, replacing an older file. */
  static void write(Path file, String token) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = dir.resolve(file.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      try {
        // Created 0600 before the secret is in it: never readable by others, even briefly.
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException | FileAlreadyExistsException e) {
        Files.createFile(tmp);
      }
      Files.writeString(tmp, token + "\n", StandardCharsets.US_ASCII,
          StandardOpenOption.TRUNCATE_EXISTING);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the bootstrap token to " + file + ": " + e
          + "; set controller.auth.bootstrap_token_file to a writable path", e);
    }
  }
}
