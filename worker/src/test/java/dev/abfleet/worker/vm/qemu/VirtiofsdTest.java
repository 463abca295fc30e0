package dev.abfleet.worker.vm.qemu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.testkit.Eventually;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The virtiofsd lifecycle against a fake daemon (a shell script). */
class VirtiofsdTest {

  /** Creates the socket named by --socket-path (as a plain file), records its pid, then serves forever. */
  private static final String SERVING = """
      for a in "$@"; do case "$a" in --socket-path=*) sock="${a#*=}" ;; esac; done
      echo $$ > "$PIDFILE"
      : > "$sock"
      exec sleep 600
      """;

  @TempDir Path dir;

  @Test
  void returnsOnceTheSocketExistsWithTheDaemonRunning() throws Exception {
    Path socket = dir.resolve("vfs.sock");

    try (Virtiofsd d = Virtiofsd.start(argv(SERVING, socket), socket, dir.resolve("logs"), Duration.ofSeconds(30))) {
      assertThat(socket).exists();
      assertThat(d.isAlive()).isTrue();
    }
  }

  @Test
  void measuresTheDaemonsCpuTimeAndThreadsWhileItRuns() throws Exception {
    Path socket = dir.resolve("vfs.sock");
    // Serves from a shell that first burns CPU in itself (no child processes: their time is not
    // the daemon's) for a few hundred ms.
    String busy = """
        for a in "$@"; do case "$a" in --socket-path=*) sock="${a#*=}" ;; esac; done
        echo $$ > "$PIDFILE"
        : > "$sock"
        i=0
        while [ "$i" -lt 400000 ]; do i=$((i + 1)); done
        : > "$PIDFILE.burnt"
        exec sleep 600
        """;
    try (Virtiofsd d = Virtiofsd.start(argv(busy, socket), socket, dir.resolve("logs"), Duration.ofSeconds(30))) {
      // The CPU time is the daemon's once its loop is done; exec keeps the pid and its times.
      Eventually.await("the daemon's busy loop done", Duration.ofSeconds(60),
          () -> Files.exists(dir.resolve("pid.burnt")));
      d.close();
      assertThat(d.usage().cpuMs()).as(d.usage().toString()).isGreaterThanOrEqualTo(100);
      assertThat(d.usage().threads()).isEqualTo(1);
    }
  }

  @Test
  void stopsTheDaemonWhenClosed() throws Exception {
    Path socket = dir.resolve("vfs.sock");
    Virtiofsd d = Virtiofsd.start(argv(SERVING, socket), socket, dir.resolve("logs"), Duration.ofSeconds(30));

    d.close();

    assertThat(d.isAlive()).isFalse();
  }

  @Test
  void reportsADaemonThatExitsBeforeItsSocketWithItsStderr() throws Exception {
    Path socket = dir.resolve("vfs.sock");
    String failing = "echo 'shared directory /nope does not exist' >&2\nexit 3\n";

    assertThatThrownBy(() -> Virtiofsd.start(argv(failing, socket), socket, dir.resolve("logs"), Duration.ofSeconds(30)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("exited with status 3")
        .hasMessageContaining("shared directory /nope does not exist");
  }

  @Test
  void killsADaemonThatNeverCreatesItsSocket() throws Exception {
    Path socket = dir.resolve("vfs.sock");
    String silent = "echo $$ > \"$PIDFILE\"\nexec sleep 600\n";

    assertThatThrownBy(() -> Virtiofsd.start(argv(silent, socket), socket, dir.resolve("logs"), Duration.ofMillis(300)))
        .isInstanceOf(IOException.class).hasMessageContaining("did not create");
    long pid = Long.parseLong(Files.readString(dir.resolve("pid")).strip());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
  }

  /** A fake virtiofsd running {@code body}, given the real argv; it writes its pid to dir/pid. */
  private List<String> argv(String body, Path socket) throws IOException {
    Path script = Files.writeString(dir.resolve("virtiofsd"),
        "#!/bin/sh\nPIDFILE='" + dir.resolve("pid") + "'\n" + body);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new VirtiofsDaemon(script, VirtiofsDaemon.Flavor.RUST, "").argv(socket, dir, "");
  }
}
