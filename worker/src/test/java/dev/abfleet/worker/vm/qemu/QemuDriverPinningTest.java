package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A boot with pinned vCPUs against a QEMU whose QMP socket is {@link FakeQmp}. */
class QemuDriverPinningTest {

  @TempDir
  Path dir;

  private Path bzImage;
  private Path initrd;
  private final List<List<String>> started = Collections.synchronizedList(new ArrayList<>());
  private volatile FakeQmp qmp;
  private final CountDownLatch qemuKilled = new CountDownLatch(1);

  private static final Function<String, Optional<Path>> INSTALLED = name -> Optional.of(Path.of("/usr/bin", name));
  private static final Function<Path, VolumeProbe> NO_VOLUMES = qemu -> new VolumeProbe(List.of(), null, Map.of());

  @BeforeEach
  void kernels() throws IOException {
    bzImage = TestKernels.bzImage(dir.resolve("vmlinuz"));
    initrd = Files.write(dir.resolve("initrd.gz"), new byte[] {1, 2, 3});
  }

  /**
   * A paused QEMU: serves QMP on the socket its argv names, runs the guest (writes a result
   * line) once continued, and dies when its thread is interrupted. taskset reads back what was
   * set.
   */
  private final CommandRunner runner = (argv, workDir, logName, timeout) -> {
    started.add(argv);
    if (argv.get(0).endsWith("taskset")) {
      String cpus = argv.get(1).equals("-p") ? argv.get(3) : "1";
      return new RunResult(0, false, false, Duration.ZERO, null, null,
          "pid " + argv.get(argv.size() - 1) + "'s current affinity list: " + cpus, "", null);
    }
    String qmpArg = argv.get(argv.indexOf("-qmp") + 1);
    Path socket = Path.of(qmpArg.substring("unix:".length(), qmpArg.indexOf(',')));
    try {
      qmp = new FakeQmp(socket, List.of(4242L));
      while (!qmp.awaitEnd(1)) {
        // paused until cont or quit
      }
      if (qmp.commands().contains("cont")) {
        Files.writeString(workDir.resolve("results.log"), "{\"metric\":\"m\"}\n");
        return new RunResult(0, false, false, Duration.ofMillis(10), null, null, "", "", null);
      }
      new CountDownLatch(1).await(); // nobody counts down: running until killed
      throw new AssertionError("a latch nobody counts down was released");
    } catch (InterruptedException e) {
      qemuKilled.countDown();
      Thread.currentThread().interrupt();
      return new RunResult(-1, false, true, Duration.ofMillis(10), null, null, "", "", null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      closeQuietly(qmp);
    }
  };

  private static void closeQuietly(FakeQmp qmp) {
    try {
      if (qmp != null) {
        qmp.close();
      }
    } catch (IOException e) {
      // test teardown
    }
  }

  private QemuDriver driver(String cpusAllowed) {
    return new QemuDriver(runner, INSTALLED, binary -> new AccelProbe(List.of("tcg"), Map.of()), NO_VOLUMES,
        "x86_64", dir, new VcpuPinner(runner, INSTALLED, () -> cpusAllowed));
  }

  private BootRequest pinnedRequest(int vcpus) {
    return new BootRequest("run-1", "x86_64", bzImage, initrd, "", List.of(), vcpus, 512,
        Duration.ofSeconds(60), dir.resolve("boot"), null, true);
  }

  @Test
  void pinsTheVcpuThreadBeforeTheGuestRunsAndRecordsItsHostCpu() throws Exception {
    BootOutcome o = driver("0-1").boot(pinnedRequest(1));

    assertThat(o.launchError()).isNull();
    assertThat(o.vcpuHostCpus()).containsExactly(1);
    assertThat(qmp.commands()).containsExactly("qmp_capabilities", "query-cpus-fast", "cont");
    assertThat(started.get(0)).contains("-S").containsSequence("-accel", "tcg,thread=multi");
    assertThat(started.subList(1, started.size())).containsExactly(
        List.of("/usr/bin/taskset", "-p", "-c", "1", "4242"),
        List.of("/usr/bin/taskset", "-c", "-p", "4242"));
    assertThat(Files.readString(o.resultsLog())).contains("\"metric\"");
    assertThat(dir.resolve("boot/qmp.sock")).doesNotExist();
  }

  @Test
  void hostThatCannotPinKillsThePausedVmAndSaysWhy() throws Exception {
    BootOutcome o = driver("0").boot(pinnedRequest(2));

    assertThat(o.launchError()).isEqualTo("cannot pin vCPUs: this host has 1 usable CPUs (cpuset 0) and cannot"
        + " pin 2 vCPUs to one each; run the arm on a host with at least 2 CPUs, or with fewer vCPUs");
    assertThat(qemuKilled.getCount()).isZero();
    assertThat(o.vcpuHostCpus()).isEmpty();
    assertThat(o.cleanExit()).isFalse();
  }

  @Test
  void unpinnedBootHasNoQmpAndRecordsNoHostCpus() throws Exception {
    CommandRunner poweringOff = (argv, workDir, logName, timeout) -> {
      started.add(argv);
      return new RunResult(0, false, false, Duration.ofMillis(10), null, null, "", "", null);
    };
    QemuDriver d = new QemuDriver(poweringOff, INSTALLED, binary -> new AccelProbe(List.of("tcg"), Map.of()),
        NO_VOLUMES, "x86_64", dir, new VcpuPinner(poweringOff, INSTALLED, () -> "0-1"));

    BootOutcome o = d.boot(new BootRequest("run-1", "x86_64", bzImage, initrd, "", List.of(), 1, 512,
        Duration.ofSeconds(60), dir.resolve("boot")));

    assertThat(o.vcpuHostCpus()).isEmpty();
    assertThat(started).hasSize(1);
    assertThat(started.get(0)).doesNotContain("-S", "-qmp");
  }
}
