package dev.abfleet.worker.build;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** How a {@link KernelBuilder#build} ended. */
public sealed interface BuildResult {

  /** The build key; null only for a {@link Failed} whose inputs could not be read. */
  String key();

  /**
   * The artifacts of a build, all under {@code home/artifacts/<key>/}.
   *
   * @param image          {@code bzImage} (x86_64) or {@code Image} (aarch64)
   * @param config         the final .config
   * @param systemMap      System.map
   * @param modulesDir     the {@code lib/modules/<release>} tree (stripped), or null when the config has no =m option
   * @param log            the build's log: every command and its output
   * @param cached         true when nothing was built: an earlier build of the same key was returned
   * @param wall           time this call took
   * @param droppedOptions options a fragment or config line asked for that the final config does not
   *                       have, e.g. {@code CONFIG_FOO=y requested, final: not set} (an unmet
   *                       dependency or a symbol this version lacks)
   * @param manifest       what was built from what
   */
  record Built(String key, Path image, Path config, Path systemMap, Path modulesDir, Path log, boolean cached,
      Duration wall, List<String> droppedOptions, BuildManifest manifest) implements BuildResult {}

  /**
   * A build that did not produce a kernel. Nothing is cached for its key: a retry builds again.
   *
   * @param kind       whose problem it is
   * @param file       the offending file: the patch that does not apply, the first source file
   *                   with a compile error (relative to the tree, e.g. {@code fs/stat.c}), the
   *                   unreadable input; null when there is none
   * @param firstError the first error line, prefixed with the patch name for PATCH, or a
   *                   sentence naming the problem and the fix
   * @param log        the build's log under {@code home/failed/<key>/build.log}; null when the
   *                   inputs could not be read and nothing ran
   */
  record Failed(String key, Kind kind, String file, String firstError, Path log) implements BuildResult {}

  /** SOURCE, PATCH, CONFIG and COMPILE are problems of the user's input; INFRA is trouble of this host. */
  enum Kind { SOURCE, PATCH, CONFIG, COMPILE, INFRA }
}
