package dev.abfleet.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh, empty abfleet home for each test (the {@code abfleet.home} property that the CLI
 * reads before $ABFLEET_HOME), removed afterwards:
 * {@code @RegisterExtension final IsolatedHome home = new IsolatedHome();}.
 */
public final class IsolatedHome implements BeforeEachCallback, AfterEachCallback {
  private Path path;

  /** This test's home directory. */
  public Path path() {
    return path;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    path = Files.createTempDirectory("abfleet-home");
    System.setProperty("abfleet.home", path.toString());
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    System.clearProperty("abfleet.home");
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
