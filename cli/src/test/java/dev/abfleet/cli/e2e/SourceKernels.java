package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The kernel source the build tests start from, and the build cache they share. One cache for
 * every end-to-end test of a run (all modules, all JVMs): the base tree is built once, later
 * tests rebuild incrementally or hit the cache.
 */
final class SourceKernels {
  /** Debian's linux-source-6.1 (bin/setup installs it). */
  static final Path TARBALL = Path.of("/usr/src/linux-source-6.1.tar.xz");

  private SourceKernels() {}

  /** $ABFLEET_TEST_BUILD_HOME, else java.io.tmpdir/abfleet-e2e-builds. */
  static Path buildHome() {
    String env = System.getenv("ABFLEET_TEST_BUILD_HOME");
    return env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("java.io.tmpdir"), "abfleet-e2e-builds");
  }

  /** The environment of an abfleet process that builds into the shared cache. */
  static Map<String, String> env() {
    return Map.of("ABFLEET_BUILD_HOME", buildHome().toString());
  }

  /** The tarball; skips the test where it is absent, unless ABFLEET_TEST_BUILD_REQUIRED=1 (CI). */
  static Path tarball() {
    boolean required = "1".equals(System.getenv("ABFLEET_TEST_BUILD_REQUIRED"));
    if (required) {
      assertThat(TARBALL).as("apt-get install linux-source-6.1 (bin/setup)").isRegularFile();
    }
    assumeTrue(Files.isRegularFile(TARBALL), TARBALL + " absent: apt-get install linux-source-6.1");
    return TARBALL;
  }

  /** The shipped example's patch (20 us of busy-waiting in vfs_getattr, i.e. every stat()). */
  static Path slowStatPatch() {
    Path p = Path.of("..", "examples", "kernel-build", "slow-stat.patch").toAbsolutePath().normalize();
    assertThat(p).isRegularFile();
    return p;
  }

  /** A patch that adds a comment line {@code text} at the top of fs/stat.c (one object recompiled). */
  static String commentPatch(String text) {
    return "--- a/fs/stat.c\n+++ b/fs/stat.c\n@@ -1,3 +1,4 @@\n+/* " + text + " */\n"
        + " // SPDX-License-Identifier: GPL-2.0\n /*\n  *  linux/fs/stat.c\n";
  }
}
