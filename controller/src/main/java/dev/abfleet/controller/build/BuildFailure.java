package dev.abfleet.controller.build;

/**
 * Why a build attempt produced no kernel.
 *
 * @param file the offending file (patch name, source file in the tree, input); empty = none
 * @param firstError the first error line, or a sentence naming the problem and the fix
 * @param logSha256 SHA-256 of the build log in the store; empty = not uploaded
 */
public record BuildFailure(Kind kind, String file, String firstError, String logSha256) {

  /** SOURCE, PATCH, CONFIG and COMPILE are the user's input: final. INFRA is the host's: retried. */
  public enum Kind {
    SOURCE, PATCH, CONFIG, COMPILE, INFRA;

    public boolean usersInput() {
      return this != INFRA;
    }
  }

  public BuildFailure {
    file = file == null ? "" : file;
    firstError = firstError == null ? "" : firstError;
    logSha256 = logSha256 == null ? "" : logSha256;
  }

  public static BuildFailure infra(String why) {
    return new BuildFailure(Kind.INFRA, "", why, "");
  }
}
