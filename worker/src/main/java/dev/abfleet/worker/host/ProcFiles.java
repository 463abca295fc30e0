package dev.abfleet.worker.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Small files under a filesystem root ({@code /}, or a fixture directory in tests). */
final class ProcFiles {
  private final Path root;

  ProcFiles(Path root) {
    this.root = root;
  }

  /** The text of {@code root/relative}, empty when it is missing or unreadable. */
  Optional<String> read(String relative) {
    try {
      return Optional.of(Files.readString(root.resolve(relative), StandardCharsets.UTF_8));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** The first line of {@code root/relative}, stripped; empty when missing. */
  String firstLine(String relative) {
    return read(relative).map(s -> s.lines().findFirst().orElse("").strip()).orElse("");
  }
}
