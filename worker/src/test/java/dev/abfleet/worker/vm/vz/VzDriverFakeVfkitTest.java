package dev.abfleet.worker.vm.vz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.HarnessParams;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.guest.SetupError;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.run.BootFacts;
import dev.abfleet.worker.run.RunClassifier;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole VZ driver on Linux: {@link VzDriver#boot} starts a fake vfkit (a shell script, see
 * {@link FakeVfkit}) through the real {@link ProcessRunner}; the fake checks the argv and plays
 * back an arm64 guest recorded under QEMU with the same devices.
 */
class VzDriverFakeVfkitTest {

  private static final List<String> HARNESS = new HarnessParams(List.of(), 2, 200, 1, "", "", 500, false)
      .kernelArgs();
  private static final List<String> SHARE_PARAMS =
      List.of("abfleet.share=abfleet", "abfleet.out=/mnt/abfleet/results.jsonl");
  private static final List<String> ALL_METRICS =
      List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read", "find_recursive", "rm_rf");

  @TempDir Path dir;

  private Path kernel;
  private Path initrd;

  private FakeVfkit fake(FakeVfkit.Guest guest, int cpus, List<String> params) throws Exception {
    kernel = TestKernels.arm64Image(dir.resolve("Image"));
    initrd = Files.write(dir.resolve("initrd.gz"), new byte[] {0x1f, (byte) 0x8b});
    return FakeVfkit.install(dir.resolve("bin"), guest, cpus, 1024, kernel, initrd, params);
  }

  private static VzDriver driver(FakeVfkit vfkit) {
    return new VzDriver("Mac OS X", "aarch64", vfkit.which(), new ProcessRunner(Duration.ofMillis(500)));
  }

  private BootRequest request(List<String> guestParams, VolumeShare volume, Duration timeout) {
    return new BootRequest("r1", "aarch64", kernel, initrd, "", guestParams, 2, 1024, timeout,
        dir.resolve("boot"), volume, false);
  }

  @Test
  void bootsTheRecordedGuestAndReadsItsResultsFromTheShare() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.RECORDED_RUN, 2, concat(SHARE_PARAMS, HARNESS));

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    assertThat(o.launchError()).isNull();
    assertThat(o.cleanExit()).isTrue();
    assertThat(o.accelerator()).isEqualTo("vz");
    assertThat(o.resultsLog()).isEqualTo(dir.resolve("boot/share/results.jsonl"));
    assertThat(o.consoleTail()).contains("abfleet /mnt/abfleet virtiofs", "fleetbench exited with status 0");
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(o.resultsLog()));
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.start()).hasValueSatisfying(s -> {
      assertThat(s.kernelRelease()).isEqualTo("6.1.0-50-cloud-arm64");
      assertThat(s.arch()).isEqualTo("aarch64");
    });
    assertThat(run.done()).isTrue();
    assertThat(run.measuredSamples()).hasSize(12);
    assertThat(run.measuredMetrics()).containsExactlyElementsOf(ALL_METRICS);
    assertThat(run.setupErrors()).isEmpty();
  }

  @Test
  void sharesTheHostVolumeBesideTheResultsShareUnderItsOwnTag() throws Exception {
    List<String> params = concat(HARNESS, new HarnessParams(List.of(), 0, 0, 0, "", "")
        .withVolume(new HarnessParams.Volume("virtiofs", VolumeTransport.TAG, "rw")).kernelArgs());
    FakeVfkit vfkit = fake(FakeVfkit.Guest.RECORDED_RUN_WITH_VOLUME, 2, concat(SHARE_PARAMS, params));
    Path volume = Files.createDirectories(dir.resolve("volumes/r1-e1"));

    BootOutcome o = driver(vfkit).boot(request(params,
        new VolumeShare(VolumeTransport.VIRTIOFS, volume, VolumeTransport.TAG), Duration.ofSeconds(30)));

    assertThat(o.launchError()).isNull();
    assertThat(o.cleanExit()).isTrue();
    assertThat(vfkit.argv()).contains("virtio-fs,sharedDir=" + dir.resolve("boot/share") + ",mountTag=abfleet",
        "virtio-fs,sharedDir=" + volume + ",mountTag=abfleet-vol");
    assertThat(volume.resolve("fleetbench-meta")).as("the guest wrote into the volume").isDirectory();
    assertThat(o.consoleTail()).contains("abfleet-vol /mnt/host virtiofs");
    assertThat(GuestProtocol.parse(Files.readAllBytes(o.resultsLog())).measuredSamples()).hasSize(12);
  }

  @Test
  void reportsAKernelWithoutVirtiofsAsAConfigurationErrorFromTheConsole() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.NO_VIRTIOFS, 2, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    assertThat(dir.resolve("boot/share/results.jsonl")).doesNotExist();
    assertThat(o.resultsLog()).isEqualTo(dir.resolve("boot/setup-errors.jsonl"));
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(o.resultsLog()));
    assertThat(run.setupErrors()).extracting(SetupError::step).containsExactly("mount results share abfleet");
    RunClassifier.Classification c = classify(o, run);
    assertThat(c.kind()).isEqualTo(FailureKind.CONFIG);
    assertThat(c.message()).isEqualTo("guest setup failed: mount results share abfleet: the kernel has no virtiofs"
        + " file system (CONFIG_VIRTIO_FS not built in, no module loaded)");
  }

  @Test
  void reportsAMissingShareDeviceWithTheKernelsReason() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.NO_SHARE_DEVICE, 2, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    RunClassifier.Classification c = classify(o, GuestProtocol.parse(Files.readAllBytes(o.resultsLog())));
    assertThat(c.kind()).isEqualTo(FailureKind.CONFIG);
    assertThat(c.message()).startsWith("guest setup failed: mount -t virtiofs abfleet: ")
        .endsWith("(kernel: virtio-fs: tag <abfleet> not found)");
  }

  @Test
  void leavesTheSharesResultsPathWhenTheGuestReportedNothing() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.REFUSED, 2, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    assertThat(o.resultsLog()).isEqualTo(dir.resolve("boot/share/results.jsonl"));
    assertThat(dir.resolve("boot/setup-errors.jsonl")).doesNotExist();
  }

  @Test
  void reportsVfkitRefusingTheVmAsALaunchErrorWithItsMessage() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.REFUSED, 2, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    assertThat(o.launchError()).startsWith("vfkit failed before the guest started (exit 1): ")
        .contains("Invalid virtual machine configuration.");
    assertThat(o.cleanExit()).isFalse();
  }

  @Test
  void killsAVfkitThatNeverExitsAtTheTimeout() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.HANGS, 2, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(2)));

    assertThat(o.timedOut()).isTrue();
    assertThat(o.exitCode()).isEqualTo(-1);
    assertThat(o.launchError()).isNull();
    assertThat(vfkit.pid()).hasValueSatisfying(pid ->
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("vfkit killed").isEmpty());
  }

  @Test
  void fakeRefusesAnArgvThatDiffersFromWhatItExpects() throws Exception {
    FakeVfkit vfkit = fake(FakeVfkit.Guest.RECORDED_RUN, 4, SHARE_PARAMS);

    BootOutcome o = driver(vfkit).boot(request(HARNESS, null, Duration.ofSeconds(30)));

    assertThat(o.launchError()).isEqualTo("vfkit failed before the guest started (exit 64): fake vfkit: --cpus '2',"
        + " expected 4");
  }

  private static RunClassifier.Classification classify(BootOutcome o, ParsedRun run) {
    return RunClassifier.classify(BootFacts.exited(o.exitCode())
        .launchError(Optional.ofNullable(o.launchError()))
        .outputOverCap(Optional.ofNullable(o.overCap()))
        .timedOut(o.timedOut())
        .harness(run.start().isPresent(), run.done())
        .setupErrors(run.setupErrors().stream().map(SetupError::describe).toList())
        .build());
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }
}
