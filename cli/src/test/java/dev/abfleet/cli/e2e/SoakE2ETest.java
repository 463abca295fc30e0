package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code abfleet soak} on real boots in QEMU (TCG here): Debian's cloud kernel boots clean five
 * times; a kernel built from linux-source-6.1 with a {@code WARN()} in a late initcall fails,
 * quoting the console's WARNING and Call Trace lines.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class SoakE2ETest {
  /** A WARN() at boot: late_initcall in fs/stat.c (one object recompiled in the warm tree). */
  static final String WARN_AT_BOOT = """
      --- a/fs/stat.c
      +++ b/fs/stat.c
      @@ -25,6 +25,14 @@
       #include "internal.h"
       #include "mount.h"
      \s
      +/* abfleet's soak end-to-end test: a kernel that warns once at boot */
      +static int __init abfleet_soak_warn(void)
      +{
      +\tWARN(1, "abfleet soak test warning\\n");
      +\treturn 0;
      +}
      +late_initcall(abfleet_soak_warn);
      +
       /**
        * generic_fillattr - Fill in the basic attributes from the inode struct
        * @mnt_userns:\tuser namespace of the mount the inode was found from
      """;

  @Test
  void passesFiveCleanBootsOfDebiansCloudKernel(@TempDir Path dir) throws Exception {
    Cli.Result r = Cli.run(dir, 10, "soak", "--kernel", Kernels.cloud().toString(), "--boots", "5");

    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    // Boots run in pairs of the kernel against itself: 5 rounds up to 6.
    assertThat(r.out()).contains("boot 6/6 ok").contains("soak: PASS 6/6");
    assertThat(r.out().lines().filter(l -> l.startsWith("boot ")).toList()).hasSize(6)
        .allMatch(l -> l.endsWith("console clean"));
  }

  @Test
  void failsAKernelThatWarnsAtBootQuotingTheConsoleLines(@TempDir Path dir) throws Exception {
    Path tarball = SourceKernels.tarball();
    Files.writeString(dir.resolve("warn-at-boot.patch"), WARN_AT_BOOT);
    Path spec = Files.writeString(dir.resolve("soak.yaml"), String.join("\n",
        "benchmark: fuse-metadata",
        "arms:",
        "  - name: stock",
        "    role: baseline",
        "    build: {source: " + tarball + ", config: abfleet-minimal}",
        "  - name: warns",
        "    role: candidate",
        "    build: {source: " + tarball + ", patches: [warn-at-boot.patch], config: abfleet-minimal}",
        ""));

    Cli.Result r = Cli.run(dir, 20, SourceKernels.env(), "soak", "--spec", spec.toString(), "--arm", "warns",
        "--boots", "2");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
    assertThat(r.out()).contains("soak: FAIL 0/2 boots clean, 2 printed console findings");
    assertThat(r.out()).containsPattern("boot 1/2 ok .* console: \\d+ lines matched");
    assertThat(r.out()).containsPattern("\\] WARNING: CPU: \\d+ PID: 1 at ")
        .contains("Call Trace:");
  }
}
