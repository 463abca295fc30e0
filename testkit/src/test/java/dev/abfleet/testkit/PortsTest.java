package dev.abfleet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PortsTest {
  @Test
  void tellsWhichProcessListensOnAPort() throws Exception {
    int port = Ports.freeLoopbackPort();
    assertThat(Ports.listensOn(ProcessHandle.current(), port)).as("nothing listens yet").isFalse();

    Process other = new ProcessBuilder("python3", "-c", "import socket,time; s=socket.socket();"
        + " s.bind(('127.0.0.1'," + port + ")); s.listen(); print('up', flush=True); time.sleep(60)").start();
    Process bystander = new ProcessBuilder("sleep", "60").start();
    try {
      assertThat(new String(other.getInputStream().readNBytes(3))).isEqualTo("up\n");
      assertThat(Ports.listensOn(other.toHandle(), port)).as("the other process's listener").isTrue();
      assertThat(Ports.listensOn(bystander.toHandle(), port)).as("not the bystander's").isFalse();
      assertThat(Ports.listensOn(ProcessHandle.current(), port)).as("a child's counts for its parent").isTrue();
    } finally {
      other.destroyForcibly().waitFor();
      bystander.destroyForcibly().waitFor();
    }

    try (ServerSocket own = new ServerSocket()) {
      own.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      Eventually.await("own listener seen", Duration.ofSeconds(5),
          () -> Ports.listensOn(ProcessHandle.current(), port));
    }
    assertThat(Ports.listensOn(ProcessHandle.current(), port)).as("closed").isFalse();
  }
}
