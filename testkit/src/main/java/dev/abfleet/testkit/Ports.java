package dev.abfleet.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

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

  /**
   * True when {@code process} or a process it started holds a TCP socket listening on
   * {@code port} (Linux: the LISTEN sockets of /proc/net/tcp and tcp6 on that port, matched by
   * inode against the processes' /proc/PID/fd links). A port picked free and never bound by the
   * process a test watches can be taken by another test's process: connecting to it proves
   * nothing about the watched one.
   */
  public static boolean listensOn(ProcessHandle process, int port) {
    Set<String> inodes = new HashSet<>();
    String hexPort = String.format(Locale.ROOT, ":%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length > 9 && f[1].endsWith(hexPort) && f[3].equals("0A")) {
            inodes.add("socket:[" + f[9] + "]");
          }
        }
      } catch (IOException absent) {
        // no such table (no IPv6): nothing listens there
      }
    }
    return !inodes.isEmpty() && Stream.concat(Stream.of(process), process.descendants())
        .anyMatch(h -> holdsAny(h.pid(), inodes));
  }

  private static boolean holdsAny(long pid, Set<String> inodes) {
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      return fds.anyMatch(fd -> {
        try {
          return inodes.contains(Files.readSymbolicLink(fd).toString());
        } catch (IOException closed) {
          return false;
        }
      });
    } catch (IOException | UncheckedIOException gone) {
      return false;
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
