package dev.abfleet.worker.build;

/**
 * Why a build step failed, as a value: becomes a {@link BuildResult.Failed}.
 *
 * @param kind       whose problem it is
 * @param file       the offending file, or null
 * @param firstError the first error line, or a sentence with the problem and its fix
 */
record Problem(BuildResult.Kind kind, String file, String firstError) {

  static Problem infra(String message) {
    return new Problem(BuildResult.Kind.INFRA, null, message);
  }
}
