package dev.abfleet.controller.artifact;

import dev.abfleet.controller.ControllerSettings;
import java.nio.file.Path;

/**
 * Where the controller keeps uploaded artifacts and boot console logs, and how much.
 *
 * @param root directory of the store
 * @param maxBytes cap in bytes over every artifact held (partial uploads included); least
 *     recently used ones are evicted to make room
 */
public record ArtifactStoreSettings(Path root, long maxBytes) {

  /** Default cap: 20 GiB. */
  public static final long DEFAULT_MAX_BYTES = 20L << 30;

  public ArtifactStoreSettings {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("controller.artifacts.max_bytes " + maxBytes
          + ": expected a positive number of bytes, e.g. 21474836480 (20 GiB)");
    }
  }

  /** $ABFLEET_HOME/artifacts (or ~/.cache/abfleet/artifacts), 20 GiB. */
  public static ArtifactStoreSettings defaults() {
    return new ArtifactStoreSettings(ControllerSettings.abfleetHome().resolve("artifacts"), DEFAULT_MAX_BYTES);
  }
}
