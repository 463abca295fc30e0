package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Boots the Debian 6.1 cloud kernel under TCG with the real initramfs and reads the results
 * from the second serial port. Downloads the kernel package into the cache on first use.
 */
@Tag("e2e")
class GuestBootE2ETest {

  private static final String KERNEL_PACKAGE = "linux-image-6.1.0-50-cloud-amd64";
  private static final List<String> ALL_METRICS =
      List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read");

  @TempDir Path tmp;

  @Test
  void bootsTheCloudKernelAndReadsSamplesForEveryMetric() throws Exception {
    Path cache = cacheDir();
    Path kernel = cloudKernel(cache);
    Path initramfs = GuestImage.ensure(cache);
    Path results = tmp.resolve("results.log");
    String append = String.join(" ", List.of("console=ttyS0", "quiet", "panic=-1",
        "abfleet.iterations=3", System.getProperty("abfleet.e2e.extraCmdline", "")))
        .strip();

    long t0 = System.nanoTime();
    Process qemu = new ProcessBuilder(
            "qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-smp", "1", "-nodefaults",
            "-no-user-config", "-display", "none", "-no-reboot",
            "-kernel", kernel.toString(), "-initrd", initramfs.toString(), "-append", append,
            "-serial", "file:" + tmp.resolve("console.log"), "-serial", "file:" + results)
        .redirectErrorStream(true)
        .redirectOutput(tmp.resolve("qemu.log").toFile())
        .start();
    boolean exited = qemu.waitFor(180, TimeUnit.SECONDS);
    if (!exited) {
      qemu.destroyForcibly().waitFor();
    }
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    String console = Files.exists(tmp.resolve("console.log"))
        ? Files.readString(tmp.resolve("console.log")) : "";
    assertThat(exited).as("VM exited in time; console:\n" + console).isTrue();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(results));
    report(run, wallMs, append);
    assertThat(run.parseErrors()).as(console).isEmpty();
    assertThat(run.harnessErrors()).isEmpty();
    assertThat(run.start()).hasValueSatisfying(
        s -> assertThat(s.kernelRelease()).isEqualTo("6.1.0-50-cloud-amd64"));
    assertThat(run.done()).isTrue();
    Map<String, Long> counts = run.measuredSamples().stream()
        .filter(s -> s.value() > 0)
        .collect(Collectors.groupingBy(GuestSample::metric, Collectors.counting()));
    assertThat(counts).containsOnlyKeys(ALL_METRICS).allSatisfy((m, n) -> assertThat(n).isEqualTo(3L));
  }

  private static void report(ParsedRun run, long wallMs, String append) {
    StringBuilder s = new StringBuilder("boot with '" + append + "': wall " + wallMs + " ms, guest boot "
        + run.start().flatMap(GuestStart::bootTime).map(d -> d.toMillis() + " ms").orElse("?")
        + ", harness " + (run.elapsedMs().isPresent() ? run.elapsedMs().getAsLong() + " ms" : "?") + "\n");
    run.measuredSamples().forEach(x ->
        s.append(String.format("  %-16s %2d %12.1f %s%n", x.metric(), x.iteration(), x.value(), x.unit())));
    System.out.print(s);
  }

  private static Path cacheDir() {
    String home = System.getenv("ABFLEET_HOME");
    return home != null && !home.isBlank()
        ? Path.of(home) : Path.of(System.getProperty("user.home"), ".cache", "abfleet");
  }

  /** DIR/kernels/PACKAGE/boot/vmlinuz-*, fetched with apt-get download + dpkg -x if absent. */
  private static Path cloudKernel(Path cache) throws IOException, InterruptedException {
    Path kernels = Files.createDirectories(cache.resolve("kernels"));
    Path unpacked = kernels.resolve(KERNEL_PACKAGE);
    if (findVmlinuz(unpacked) == null) {
      run(kernels, "apt-get", "download", KERNEL_PACKAGE);
      Path deb;
      try (Stream<Path> s = Files.list(kernels)) {
        deb = s.filter(p -> p.getFileName().toString().startsWith(KERNEL_PACKAGE + "_")
            && p.getFileName().toString().endsWith(".deb")).findFirst().orElseThrow();
      }
      run(kernels, "dpkg", "-x", deb.toString(), unpacked.toString());
    }
    return findVmlinuz(unpacked);
  }

  private static Path findVmlinuz(Path unpacked) throws IOException {
    Path boot = unpacked.resolve("boot");
    if (!Files.isDirectory(boot)) {
      return null;
    }
    try (Stream<Path> s = Files.list(boot)) {
      return s.filter(p -> p.getFileName().toString().startsWith("vmlinuz-")).findFirst().orElse(null);
    }
  }

  private static void run(Path dir, String... argv) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(argv));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed with exit " + p.exitValue());
    }
  }
}
