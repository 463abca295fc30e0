package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Telling the two virtiofsd command lines apart, and speaking each. */
class VirtiofsDaemonTest {
  private static final Path SOCKET = Path.of("/tmp/v/vfs.sock");
  private static final Path DIR = Path.of("/h/vol");

  @Test
  void recognisesTheMaintainedDaemonAndItsVersion() {
    VirtiofsDaemon d = VirtiofsDaemon.recognise(Path.of("/usr/libexec/virtiofsd"),
        "Usage: virtiofsd [OPTIONS] --socket-path <socket-path> --shared-dir <shared-dir>", "virtiofsd 1.10.1\n")
        .orElseThrow();

    assertThat(d.flavor()).isEqualTo(VirtiofsDaemon.Flavor.RUST);
    assertThat(d.label()).isEqualTo("virtiofsd 1.10.1");
  }

  @Test
  void recognisesQemusCDaemonByItsSourceOptionAndKeepsMajorMinor() {
    VirtiofsDaemon d = VirtiofsDaemon.recognise(Path.of("/usr/lib/qemu/virtiofsd"),
        "    -o source=PATH             shared directory tree\n",
        "virtiofsd version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\n").orElseThrow();

    assertThat(d.flavor()).isEqualTo(VirtiofsDaemon.Flavor.QEMU);
    assertThat(d.label()).isEqualTo("qemu-virtiofsd 7.2");
  }

  @Test
  void labelsADaemonThatGaveNoVersionByItsKindAlone() {
    assertThat(VirtiofsDaemon.recognise(Path.of("x"), "-o source=PATH", "").orElseThrow().label())
        .isEqualTo("qemu-virtiofsd");
  }

  @Test
  void knowsNoDaemonWithNeitherCommandLine() {
    assertThat(VirtiofsDaemon.recognise(Path.of("x"), "usage: something else", "")).isEmpty();
  }

  @Test
  void buildsTheMaintainedDaemonsCommandLineSpellingNoneAsNever() {
    VirtiofsDaemon d = new VirtiofsDaemon(Path.of("/usr/libexec/virtiofsd"), VirtiofsDaemon.Flavor.RUST, "1.10.1");

    assertThat(d.argv(SOCKET, DIR, "")).containsExactly("/usr/libexec/virtiofsd", "--socket-path=/tmp/v/vfs.sock",
        "--shared-dir=/h/vol", "--cache=auto", "--sandbox=none");
    assertThat(d.argv(SOCKET, DIR, "none")).contains("--cache=never");
  }

  @Test
  void buildsQemusDaemonsCommandLineWithAChrootSandbox() {
    VirtiofsDaemon d = new VirtiofsDaemon(Path.of("/usr/lib/qemu/virtiofsd"), VirtiofsDaemon.Flavor.QEMU, "7.2");

    assertThat(d.argv(SOCKET, DIR, "always")).containsExactly("/usr/lib/qemu/virtiofsd",
        "--socket-path=/tmp/v/vfs.sock", "-o", "source=/h/vol", "-o", "cache=always", "-o", "sandbox=chroot");
    assertThat(d.needsRoot()).isTrue();
  }

  @Test
  void rejectsACacheModeNeitherDaemonHas() {
    VirtiofsDaemon d = new VirtiofsDaemon(Path.of("v"), VirtiofsDaemon.Flavor.QEMU, "7.2");

    assertThatThrownBy(() -> d.argv(SOCKET, DIR, "loose"))
        .hasMessageContaining("unknown virtio-fs cache mode 'loose'").hasMessageContaining("auto, always, none");
  }
}
