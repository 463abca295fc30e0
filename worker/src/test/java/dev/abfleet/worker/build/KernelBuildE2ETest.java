package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.model.BuildSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.TestGuests;
import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import dev.abfleet.worker.vm.qemu.QemuDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds Debian's linux-source-6.1 tarball for real with the abfleet-minimal config, then
 * patched variants on the same warm tree.
 *
 * <p>The build home is shared by every e2e test of a run, in every module, so that the base
 * build (minutes) happens once: {@code $ABFLEET_TEST_BUILD_HOME} when set, else
 * {@code <java.io.tmpdir>/abfleet-e2e-builds}. Without the tarball the tests are skipped,
 * unless {@code ABFLEET_TEST_BUILD_REQUIRED=1}, which makes that a failure.
 *
 * <p>Every test builds what it needs itself, but they run in order so that the first one's
 * printed wall time is that of the base build (on a fresh home: unpack, import, full compile).
 */
@Tag("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KernelBuildE2ETest {

  static final Path TARBALL = Path.of("/usr/src/linux-source-6.1.tar.xz");

  static KernelBuilder builder;

  @TempDir
  Path dir;

  @BeforeAll
  static void needsTheSourceTarball() {
    if (!Files.isReadable(TARBALL)) {
      String why = TARBALL + " is absent: apt-get install linux-source-6.1";
      if ("1".equals(System.getenv("ABFLEET_TEST_BUILD_REQUIRED"))) {
        fail(why + " (ABFLEET_TEST_BUILD_REQUIRED=1)");
      }
      Assumptions.abort(why);
    }
    builder = new KernelBuilder(sharedHome());
  }

  /** The build home every e2e test of a run shares (see the class comment). */
  static Path sharedHome() {
    String env = System.getenv("ABFLEET_TEST_BUILD_HOME");
    return env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("java.io.tmpdir"), "abfleet-e2e-builds");
  }

  @Test
  @Order(1)
  void buildsTheSourceTarballWithTheMinimalConfigForTheBenchmarkGuest() throws Exception {
    Recorder rec = new Recorder();
    BuildResult.Built b = built(builder.build(base(), rec));

    System.out.printf("base build: %s, cached=%s, wall=%d s, %d objects (expected %d), dropped=%s%n",
        b.manifest().describe(), b.cached(), b.wall().toSeconds(), rec.objects, rec.expected, b.droppedOptions());
    assertThat(b.image()).isRegularFile().hasFileName("bzImage");
    Map<String, String> config = KernelConfig.parse(Files.readString(b.config()));
    assertThat(config).containsEntry("CONFIG_VIRTIO_FS", "y").containsEntry("CONFIG_64BIT", "y")
        .containsEntry("CONFIG_ACPI", "y");
    assertThat(GuestRequirements.missing(config, "x86_64", "virtiofs")).isEmpty();
    assertThat(GuestRequirements.missing(config, "x86_64", "9p")).isEmpty();
    assertThat(b.droppedOptions()).isEmpty();
    assertThat(b.modulesDir()).isNull();
    // The tree's own version (Debian updates linux-source-6.1: 6.1.176, later 6.1.192).
    assertThat(b.manifest().release()).matches("6\\.1\\.\\d+").isEqualTo(packagedVersion());
    assertThat(b.image().resolveSibling("manifest.json")).isRegularFile();
  }

  @Test
  @Order(2)
  void returnsTheCachedBuildAtOnceForTheSameInputs() throws Exception {
    BuildResult.Built first = built(builder.build(base(), BuildListener.NONE));

    Recorder rec = new Recorder();
    BuildResult.Built again = built(builder.build(base(), rec));

    System.out.printf("cached call: %d ms%n", again.wall().toMillis());
    assertThat(again.cached()).isTrue();
    assertThat(again.key()).isEqualTo(first.key()).isEqualTo(builder.key(base()));
    assertThat(rec.phases).isEmpty();
    assertThat(again.wall()).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  @Order(3)
  void rebuildsAOneFilePatchIncrementallyUnderANewKey() throws Exception {
    BuildResult.Built base = built(builder.build(base(), BuildListener.NONE));
    Path patch = patch("comment.patch", "+/* abfleet e2e: a harmless comment, line " + System.nanoTime() + " */\n");

    Recorder rec = new Recorder();
    BuildResult.Built b = built(builder.build(base().withPatches(List.of(patch)), rec));

    System.out.printf("one-file patch rebuild: wall=%d s, %d objects, phases=%s%n", b.wall().toSeconds(),
        rec.objects, rec.phases);
    assertThat(b.cached()).isFalse();
    assertThat(b.key()).isNotEqualTo(base.key());
    assertThat(rec.phases).containsExactly("patch", "config", "compile", "store");
    assertThat(rec.objects).isBetween(1, 20);
    assertThat(b.manifest().patchNames()).containsExactly("comment.patch");
    assertThat(b.image()).isRegularFile();
  }

  @Test
  @Order(4)
  void reportsAPatchThatDoesNotApplyNamingThePatch() throws Exception {
    Path patch = Files.writeString(dir.resolve("stale.patch"), """
        --- a/fs/stat.c
        +++ b/fs/stat.c
        @@ -1,3 +1,4 @@
         // this line is not in fs/stat.c
        +/* never applied */
         /*
          *  linux/fs/stat.c
        """);

    BuildResult r = builder.build(base().withPatches(List.of(patch)), BuildListener.NONE);

    assertThat(r).isInstanceOf(BuildResult.Failed.class);
    BuildResult.Failed f = (BuildResult.Failed) r;
    System.out.printf("stale patch: %s%n", f.firstError());
    assertThat(f.kind()).isEqualTo(BuildResult.Kind.PATCH);
    assertThat(f.file()).isEqualTo(patch.toString());
    assertThat(f.firstError()).startsWith("stale.patch: error: patch failed: fs/stat.c:1");
    assertThat(f.log()).isRegularFile();
  }

  @Test
  @Order(5)
  void reportsACompileErrorWithItsSourceFileAndIsNotCached() throws Exception {
    Path patch = patch("broken.patch", "+int abfleet_broken = ;\n");
    BuildSpec spec = base().withPatches(List.of(patch));

    BuildResult r = builder.build(spec, BuildListener.NONE);

    assertThat(r).isInstanceOf(BuildResult.Failed.class);
    BuildResult.Failed f = (BuildResult.Failed) r;
    System.out.printf("broken patch: %s (log %s)%n", f.firstError(), f.log());
    assertThat(f.kind()).isEqualTo(BuildResult.Kind.COMPILE);
    assertThat(f.file()).isEqualTo("fs/stat.c");
    assertThat(f.firstError()).startsWith("fs/stat.c:2:").contains("error:");
    assertThat(f.log()).isRegularFile();
    assertThat(builder.build(spec, BuildListener.NONE)).isInstanceOf(BuildResult.Failed.class);
  }

  /**
   * The minimal config boots the benchmark's guest: a 9p host volume mounted, scheduler statistics
   * readable, results on ttyS1, both vCPUs of {@code -smp 2} (found through ACPI's MADT; without
   * ACPI the kernel reads SeaBIOS's MP table, which lists one CPU per socket), and the guest powers
   * the VM off.
   */
  @Test
  @Order(6)
  void theBuiltKernelBootsTheGuestWithA9pHostVolume() throws Exception {
    BuildResult.Built b = built(builder.build(base(), BuildListener.NONE));
    Path initrd = TestGuests.busyboxInitramfs(dir.resolve("guest"), """
        bb=/bin/busybox
        $bb mkdir -p /proc /sys /tmp /mnt
        $bb mount -t proc proc /proc
        $bb mount -t sysfs sysfs /sys
        $bb mount -t devtmpfs devtmpfs /dev
        $bb mount -t tmpfs tmpfs /tmp
        $bb mount -t 9p -o trans=virtio,version=9p2000.L abfleet-vol /mnt && echo hello > /mnt/from-guest
        echo "cpus=$($bb grep -c ^processor /proc/cpuinfo) schedstat=$($bb head -1 /proc/schedstat)" > /dev/ttyS1
        $bb poweroff -f
        """);
    Path volume = Files.createDirectories(dir.resolve("volume"));
    QemuDriver driver = QemuDriver.forThisHost(dir.resolve("scratch"));

    BootOutcome o = driver.boot(new BootRequest("e2e-built", "x86_64", b.image(), initrd, "", List.of(), 2, 256,
        Duration.ofSeconds(120), dir.resolve("boot"), new VolumeShare(VolumeTransport.NINE_P, volume,
            VolumeTransport.TAG)));

    System.out.printf("boot of the built kernel: accel=%s exit=%d wall=%d ms%n", o.accelerator(), o.exitCode(),
        o.wall().toMillis());
    assertThat(o.launchError()).isNull();
    assertThat(o.timedOut()).as(Files.readString(o.consoleLog())).isFalse();
    assertThat(Files.readAllLines(o.resultsLog())).as(Files.readString(o.consoleLog()))
        .containsExactly("cpus=2 schedstat=version 15");
    assertThat(volume.resolve("from-guest")).hasContent("hello");
  }

  /**
   * The upstream version of the installed linux-source-6.1 ("6.1.192" of "6.1.192-1"), which
   * `make kernelrelease` of the minimal config gives.
   */
  private static String packagedVersion() throws Exception {
    Process p = new ProcessBuilder("dpkg-query", "-W", "-f=${Version}", "linux-source-6.1")
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor()).as("dpkg-query linux-source-6.1: %s", out).isZero();
    return out.replaceFirst("-[^-]*$", "");
  }

  private static BuildSpec base() {
    return BuildSpec.of(new BuildSource.Tarball(TARBALL));
  }

  /** A patch adding {@code added} after the first line of fs/stat.c (its SPDX header). */
  private Path patch(String name, String added) throws Exception {
    return Files.writeString(dir.resolve(name), "--- a/fs/stat.c\n+++ b/fs/stat.c\n@@ -1,3 +1,4 @@\n"
        + " // SPDX-License-Identifier: GPL-2.0\n" + added + " /*\n  *  linux/fs/stat.c\n");
  }

  private static BuildResult.Built built(BuildResult r) {
    if (r instanceof BuildResult.Failed f) {
      fail("build failed: " + f + "\n" + tail(f.log()));
    }
    return (BuildResult.Built) r;
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (Exception e) {
      return "(no log: " + e + ")";
    }
  }

  static final class Recorder implements BuildListener {
    final List<String> phases = new ArrayList<>();
    int objects;
    int expected;

    @Override
    public void phase(String phase) {
      phases.add(phase);
    }

    @Override
    public void compiled(int objects, int expected) {
      this.objects = objects;
      this.expected = expected;
    }
  }
}
