package dev.abfleet.controller.artifact;

/** Why the store refused a request; {@link ArtifactServiceImpl} maps each kind to a status code. */
public final class StoreException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /** The artifact is not held (complete). */
    NOT_FOUND,
    /** Complete already: nothing to upload. */
    EXISTS,
    /** Larger than the cap, or no room left beside artifacts in use. */
    NO_ROOM,
    /** Another upload of the same artifact is in progress. */
    BUSY,
    /** A chunk does not continue where the held prefix ends, or overruns the declared size. */
    BAD_OFFSET,
    /** The whole upload does not hash to the sha256 it was declared with (it was discarded). */
    HASH_MISMATCH,
    /** The request itself is malformed. */
    INVALID
  }

  private final Kind kind;

  public StoreException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
