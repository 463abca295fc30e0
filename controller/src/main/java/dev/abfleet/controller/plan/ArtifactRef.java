package dev.abfleet.controller.plan;

/**
 * A content-addressed file (kernel, initrd).
 *
 * @param sha256 lower-case hex SHA-256 of the bytes
 * @param uri where the worker reads it (absolute path or file:// URI); empty = worker cache
 * @param sizeBytes size in bytes; 0 = unknown
 */
public record ArtifactRef(String sha256, String uri, long sizeBytes) {
  public ArtifactRef {
    sha256 = sha256 == null ? "" : sha256;
    uri = uri == null ? "" : uri;
  }
}
