package dev.abfleet.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Ports for processes a test starts itself. */
public final class Ports {
  private static final Random RANDOM = new Random();

  private Ports() {}

  /**
   * A loopback port free when asked (the test binds it soon after), below the kernel's
   * ephemeral range: a port from that range can be taken in the meantime as the local end of
   * any outgoing connection (a controller's PostgreSQL pool, a cluster node dialling a seed that
   * is not up yet), which once made a node fail with "Address already in use".
   */
  public static int freeLoopbackPort() throws IOException {
    int below = ephemeralLow();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = 10_000 + RANDOM.nextInt(below - 10_000);
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException taken) {
        // another one
      }
    }
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Low end of Linux's ephemeral port range; 32768 (its default) when it cannot be read. */
  private static int ephemeralLow() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
      return Math.max(11_000, Integer.parseInt(range.split("\\s+")[0]));
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
