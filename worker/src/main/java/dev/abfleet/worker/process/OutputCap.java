package dev.abfleet.worker.process;

import java.nio.file.Path;

/**
 * A file a started process writes that must stay under a size: the runner kills the process
 * tree once the file grows past {@code maxBytes} (see {@link CommandRunner#run(java.util.List,
 * Path, String, java.time.Duration, java.util.List)}).
 *
 * @param file     the watched file; a missing file is within its cap
 * @param maxBytes the largest size in bytes that is still within the cap
 */
public record OutputCap(Path file, long maxBytes) {

  /** Why {@code file} is over its cap, or null when it is within it (or does not exist). */
  public String exceeded(long size) {
    return size > maxBytes
        ? file.getFileName() + " grew to " + size + " bytes, past its cap of " + maxBytes + " bytes"
        : null;
  }
}
