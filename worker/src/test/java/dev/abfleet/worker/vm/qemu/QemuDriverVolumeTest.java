package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A boot with a host volume, over a fake QEMU (a runner) and a fake virtiofsd (a shell script). */
class QemuDriverVolumeTest {

  @TempDir Path dir;

  /** What the fake QEMU saw when it started: its argv, and whether virtiofsd was serving then. */
  private final List<List<String>> started = new ArrayList<>();
  private final List<Boolean> daemonAliveAtStart = new ArrayList<>();

  @Test
  void startsVirtiofsdBeforeTheVmAndStopsItWithTheVm() throws Exception {
    Path daemon = fakeVirtiofsd();
    QemuDriver d = driver(new VolumeProbe(List.of("virtiofs", "9p"), qemuDaemon(daemon), Map.of()));

    BootOutcome o = d.boot(request(VolumeTransport.VIRTIOFS));

    assertThat(o.launchError()).isNull();
    assertThat(daemonAliveAtStart).containsExactly(true);
    String socket = started.get(0).stream().filter(a -> a.startsWith("socket,id=vol,path=")).findFirst().orElseThrow()
        .substring("socket,id=vol,path=".length());
    assertThat(Path.of(socket)).as("the socket directory goes with the VM").doesNotExist();
    assertThat(ProcessHandle.of(pid()).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    assertThat(o.volumeDaemon().name()).isEqualTo("qemu-virtiofsd 7.2");
    assertThat(o.volumeDaemon().options()).isEqualTo("cache=auto");
    assertThat(o.volumeDaemon().threads()).isPositive();
  }

  @Test
  void passesTheArmsCacheModeToQemusDaemon() throws Exception {
    Path daemon = fakeVirtiofsd();
    QemuDriver d = driver(new VolumeProbe(List.of("virtiofs", "9p"), qemuDaemon(daemon), Map.of()));
    Path volume = Files.createDirectories(dir.resolve("volume"));

    BootOutcome o = d.boot(request(new VolumeShare(VolumeTransport.VIRTIOFS, volume, VolumeTransport.TAG, "always")));

    assertThat(Files.readString(dir.resolve("args"))).contains("-o source=" + volume + " -o cache=always -o sandbox=chroot");
    assertThat(o.volumeDaemon().options()).isEqualTo("cache=always");
  }

  @Test
  void startsNoDaemonForANinePVolume() throws Exception {
    Path daemon = fakeVirtiofsd();
    QemuDriver d = driver(new VolumeProbe(List.of("virtiofs", "9p"), qemuDaemon(daemon), Map.of()));

    d.boot(request(VolumeTransport.NINE_P));

    assertThat(started.get(0)).contains("virtio-9p-pci,fsdev=vol,mount_tag=abfleet-vol");
    assertThat(dir.resolve("pid")).doesNotExist();
  }

  @Test
  void refusesATransportThisHostDoesNotOfferWithTheProbesReason() throws Exception {
    QemuDriver d = driver(new VolumeProbe(List.of("9p"), null, Map.of("virtiofs", "no virtiofsd in PATH")));

    BootOutcome o = d.boot(request(VolumeTransport.VIRTIOFS));

    assertThat(o.launchError()).isEqualTo("volume transport virtiofs is not available on this host: no virtiofsd in PATH");
    assertThat(started).isEmpty();
  }

  private QemuDriver driver(VolumeProbe volumes) {
    CommandRunner qemu = (argv, workDir, logName, timeout) -> {
      started.add(argv);
      daemonAliveAtStart.add(Files.exists(dir.resolve("pid"))
          && ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false));
      return new RunResult(0, false, false, Duration.ofMillis(10), null, null, "", "", null);
    };
    return new QemuDriver(qemu, name -> Optional.of(Path.of("/usr/bin", name)),
        binary -> new AccelProbe(List.of("tcg"), Map.of()), binary -> volumes, "x86_64", dir);
  }

  private BootRequest request(VolumeTransport transport) throws IOException {
    return request(new VolumeShare(transport, Files.createDirectories(dir.resolve("volume")), VolumeTransport.TAG));
  }

  private BootRequest request(VolumeShare share) throws IOException {
    Path kernel = TestKernels.bzImage(dir.resolve("vmlinuz"));
    Path initrd = Files.write(dir.resolve("initrd.gz"), new byte[] {1});
    return new BootRequest("r1", "x86_64", kernel, initrd, "", List.of(), 1, 512, Duration.ofSeconds(60),
        dir.resolve("boot"), share);
  }

  private static VirtiofsDaemon qemuDaemon(Path binary) {
    return new VirtiofsDaemon(binary, VirtiofsDaemon.Flavor.QEMU, "7.2");
  }

  private long pid() {
    try {
      return Long.parseLong(Files.readString(dir.resolve("pid")).strip());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Path fakeVirtiofsd() throws IOException {
    Path script = Files.writeString(dir.resolve("virtiofsd"), "#!/bin/sh\n"
        + "for a in \"$@\"; do case \"$a\" in --socket-path=*) sock=\"${a#*=}\" ;; esac; done\n"
        + "echo \"$*\" > '" + dir.resolve("args") + "'\n"
        + "echo $$ > '" + dir.resolve("pid") + "'\n"
        + ": > \"$sock\"\n"
        + "exec sleep 600\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
