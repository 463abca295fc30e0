package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSpec;

/**
 * An input of a {@link BuildSpec} that cannot be read or resolved: the message names the input
 * and the fix. {@link KernelBuilder#build} reports it as a {@link BuildResult.Failed} of
 * {@link #kind()}.
 */
public final class BuildInputException extends RuntimeException {

  private final BuildResult.Kind kind;
  private final String file;

  public BuildInputException(BuildResult.Kind kind, String file, String message) {
    super(message);
    this.kind = kind;
    this.file = file;
  }

  /** Whose input it is: SOURCE, PATCH or CONFIG (INFRA when a host tool is missing). */
  public BuildResult.Kind kind() {
    return kind;
  }

  /** The offending file, or null. */
  public String file() {
    return file;
  }
}
