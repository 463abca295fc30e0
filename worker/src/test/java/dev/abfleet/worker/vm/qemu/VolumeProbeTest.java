package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transport probe against fake qemu and virtiofsd executables. */
class VolumeProbeTest {

  private static final String BOTH_DEVICES = """
      Storage devices:
      name "vhost-user-fs-pci", bus PCI
      name "virtio-9p-pci", bus PCI, alias "virtio-9p"
      """;
  private static final String RUST_DAEMON_HELP = """
      Usage: virtiofsd [OPTIONS] --socket-path <socket-path> --shared-dir <shared-dir>
          --sandbox <sandbox>  Sandbox mechanism to isolate the daemon process (namespace, chroot, none)
      """;

  private static final String C_DAEMON_HELP = """
      usage: /usr/lib/qemu/virtiofsd [options]
          -o cache=<mode>            cache mode. could be one of "auto, always, none"
          -o source=PATH             shared directory tree
      """;
  private static final String C_DAEMON_VERSION = """
      virtiofsd version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)
      """;

  @TempDir Path dir;

  @Test
  void offersVirtiofsFirstWhenVirtiofsdAndTheQemuDeviceAreThere() throws IOException {
    Path daemon = fake("virtiofsd", RUST_DAEMON_HELP);

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("virtiofsd", daemon));

    assertThat(p.transports()).containsExactly("virtiofs", "9p");
    assertThat(p.virtiofsd().binary()).isEqualTo(daemon);
  }

  @Test
  void offersNinePAloneAndSaysWhatToInstallWithoutVirtiofsd() throws IOException {
    VolumeProbe p = probe(BOTH_DEVICES, Map.of());

    assertThat(p.transports()).containsExactly("9p");
    assertThat(p.virtiofsd()).isNull();
    assertThat(p.reasons().get("virtiofs")).contains("no virtiofsd").contains("install virtiofsd");
  }

  @Test
  void findsVirtiofsdWhereDistributionsInstallItOutsidePath() throws IOException {
    Path daemon = fake("libexec-virtiofsd", RUST_DAEMON_HELP);

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("/usr/libexec/virtiofsd", daemon));

    assertThat(p.transports()).containsExactly("virtiofs", "9p");
    assertThat(p.virtiofsd().binary()).isEqualTo(daemon);
  }

  @Test
  void offersVirtiofsOverQemusOwnCDaemonWhenRunningAsRoot() throws IOException {
    Path daemon = fake("qemu-virtiofsd", C_DAEMON_HELP + C_DAEMON_VERSION);

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("/usr/lib/qemu/virtiofsd", daemon), true);

    assertThat(p.transports()).containsExactly("virtiofs", "9p");
    assertThat(p.virtiofsd().flavor()).isEqualTo(VirtiofsDaemon.Flavor.QEMU);
    assertThat(p.virtiofsd().label()).isEqualTo("qemu-virtiofsd 7.2");
  }

  @Test
  void leavesOutQemusCDaemonForAWorkerThatIsNotRootAndSaysWhy() throws IOException {
    Path daemon = fake("qemu-virtiofsd", C_DAEMON_HELP + C_DAEMON_VERSION);

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("/usr/lib/qemu/virtiofsd", daemon), false);

    assertThat(p.transports()).containsExactly("9p");
    assertThat(p.reasons().get("virtiofs")).contains("qemu-virtiofsd 7.2").contains("runs only as root");
  }

  @Test
  void leavesOutADaemonWhoseCommandLineItDoesNotKnow() throws IOException {
    Path daemon = fake("odd-virtiofsd", "usage: virtiofsd --export PATH\n");

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("virtiofsd", daemon), true);

    assertThat(p.transports()).containsExactly("9p");
    assertThat(p.reasons().get("virtiofs")).contains("takes neither --shared-dir").contains("-o source=");
  }

  @Test
  void offersNothingWhenQemuHasNeitherDevice() throws IOException {
    Path daemon = fake("virtiofsd", RUST_DAEMON_HELP);

    VolumeProbe p = probe("name \"virtio-net-pci\", bus PCI\n", Map.of("virtiofsd", daemon));

    assertThat(p.transports()).isEmpty();
    assertThat(p.reasons()).containsOnlyKeys("virtiofs", "9p");
  }

  private VolumeProbe probe(String deviceHelp, Map<String, Path> installed) throws IOException {
    return probe(deviceHelp, installed, false);
  }

  private VolumeProbe probe(String deviceHelp, Map<String, Path> installed, boolean root) throws IOException {
    Path qemu = fake("qemu-system-x86_64", deviceHelp);
    Function<String, Optional<Path>> which = name -> Optional.ofNullable(installed.get(name));
    return VolumeProbe.probe(qemu, which, new ProcessRunner(), dir.resolve("scratch"), root);
  }

  /** An executable that prints {@code help} whatever it is asked. */
  private Path fake(String name, String help) throws IOException {
    Path text = Files.writeString(dir.resolve(name + ".txt"), help);
    Path script = Files.writeString(dir.resolve(name), "#!/bin/sh\ncat '" + text + "'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
