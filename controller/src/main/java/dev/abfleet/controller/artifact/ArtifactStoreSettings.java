package dev.abfleet.controller.artifact;

import dev.abfleet.controller.ControllerSettings;
import java.nio.file.Path;

/**
 * Where the controller keeps uploaded artifacts and boot console logs, and how much.
 *
 * @param root directory of the store
 * @param maxBytes cap in bytes over every artifact held (partial uploads included); least
 *     recently used ones are evicted to make room
 * @param maxUploadBytes cap in bytes on one artifact (its declared size): a larger upload is
 *     refused and what was held of it removed
 */
public record ArtifactStoreSettings(Path root, long maxBytes, long maxUploadBytes) {

  /** Default cap: 20 GiB. */
  public static final long DEFAULT_MAX_BYTES = 20L << 30;
  /** Default cap on one upload: 8 GiB. */
  public static final long DEFAULT_MAX_UPLOAD_BYTES = 8L << 30;

  public ArtifactStoreSettings {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("controller.artifacts.max_bytes " + maxBytes
          + ": expected a positive number of bytes, e.g. 21474836480 (20 GiB)");
    }
    if (maxUploadBytes <= 0) {
      throw new IllegalArgumentException("controller.artifacts.max_upload_bytes " + maxUploadBytes
          + ": expected a positive number of bytes, e.g. 8GiB");
    }
  }

  /** At most {@link #DEFAULT_MAX_UPLOAD_BYTES} per upload. */
  public ArtifactStoreSettings(Path root, long maxBytes) {
    this(root, maxBytes, DEFAULT_MAX_UPLOAD_BYTES);
  }

  /** {@link #under(Path)} $ABFLEET_HOME (or ~/.cache/abfleet), 20 GiB. */
  public static ArtifactStoreSettings defaults() {
    return new ArtifactStoreSettings(under(ControllerSettings.abfleetHome()), DEFAULT_MAX_BYTES);
  }

  /**
   * The store's directory in an abfleet home: {@code <home>/artifacts/controller}, beside (not
   * inside) the worker cache {@code <home>/artifacts/sha256}, so that a controller and a worker
   * sharing a home never evict each other's files.
   */
  public static Path under(Path home) {
    return home.resolve("artifacts").resolve("controller");
  }
}
