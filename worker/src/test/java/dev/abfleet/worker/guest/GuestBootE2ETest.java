package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.qemu.QemuDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Boots the Debian 6.1 cloud kernel in QEMU (TCG where KVM cannot run guests) with the real
 * initramfs and reads the results from the second serial port. Downloads the kernel package
 * into the cache on first use.
 */
@Tag("e2e")
class GuestBootE2ETest {

  private static final List<String> ALL_METRICS =
      List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read", "find_recursive",
          "rm_rf");

  @TempDir Path tmp;

  @Test
  void bootsTheCloudKernelAndReadsSamplesForEveryMetric() throws Exception {
    Path kernel = TestKernels.cloudKernel();
    Path initramfs = GuestImage.ensure(WorkerSettings.defaultHome());
    String extra = System.getProperty("abfleet.e2e.extraCmdline", "");
    QemuDriver qemu = QemuDriver.forThisHost(tmp.resolve("scratch"));

    BootOutcome boot = qemu.boot(new BootRequest("guest-e2e", "x86_64", kernel, initramfs, extra,
        List.of("abfleet.iterations=3"), 1, 512, Duration.ofSeconds(180), tmp.resolve("boot")));

    String console = Files.exists(boot.consoleLog()) ? Files.readString(boot.consoleLog()) : "";
    assertThat(boot.launchError()).isNull();
    assertThat(boot.timedOut()).as("VM exited in time; console:\n" + console).isFalse();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(boot.resultsLog()));
    report(run, boot, extra);
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

  private static void report(ParsedRun run, BootOutcome boot, String extra) {
    StringBuilder s = new StringBuilder("boot with extra '" + extra + "' (" + boot.accelerator() + "): wall "
        + boot.wall().toMillis() + " ms, guest boot "
        + run.start().flatMap(GuestStart::bootTime).map(d -> d.toMillis() + " ms").orElse("?")
        + ", harness " + (run.elapsedMs().isPresent() ? run.elapsedMs().getAsLong() + " ms" : "?") + "\n");
    run.measuredSamples().forEach(x ->
        s.append(String.format("  %-16s %2d %12.1f %s%n", x.metric(), x.iteration(), x.value(), x.unit())));
    System.out.print(s);
  }
}
