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

  @TempDir Path dir;

  @Test
  void offersVirtiofsFirstWhenVirtiofsdAndTheQemuDeviceAreThere() throws IOException {
    Path daemon = fake("virtiofsd", RUST_DAEMON_HELP);

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("virtiofsd", daemon));

    assertThat(p.transports()).containsExactly("virtiofs", "9p");
    assertThat(p.virtiofsd()).isEqualTo(daemon);
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
    assertThat(p.virtiofsd()).isEqualTo(daemon);
  }

  @Test
  void leavesOutADaemonWithoutTheSharedDirOption() throws IOException {
    Path daemon = fake("old-virtiofsd", "usage: virtiofsd [options]\n    -o source=PATH   shared directory tree\n");

    VolumeProbe p = probe(BOTH_DEVICES, Map.of("/usr/lib/qemu/virtiofsd", daemon));

    assertThat(p.transports()).containsExactly("9p");
    assertThat(p.reasons().get("virtiofs")).contains("does not take --shared-dir");
  }

  @Test
  void offersNothingWhenQemuHasNeitherDevice() throws IOException {
    Path daemon = fake("virtiofsd", RUST_DAEMON_HELP);

    VolumeProbe p = probe("name \"virtio-net-pci\", bus PCI\n", Map.of("virtiofsd", daemon));

    assertThat(p.transports()).isEmpty();
    assertThat(p.reasons()).containsOnlyKeys("virtiofs", "9p");
  }

  private VolumeProbe probe(String deviceHelp, Map<String, Path> installed) throws IOException {
    Path qemu = fake("qemu-system-x86_64", deviceHelp);
    Function<String, Optional<Path>> which = name -> Optional.ofNullable(installed.get(name));
    return VolumeProbe.probe(qemu, which, new ProcessRunner(), dir.resolve("scratch"));
  }

  /** An executable that prints {@code help} whatever it is asked. */
  private Path fake(String name, String help) throws IOException {
    Path text = Files.writeString(dir.resolve(name + ".txt"), help);
    Path script = Files.writeString(dir.resolve(name), "#!/bin/sh\ncat '" + text + "'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
