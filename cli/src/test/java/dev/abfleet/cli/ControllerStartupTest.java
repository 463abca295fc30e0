package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller that cannot start (bad port, unusable or busy --home) says why in one line and
 * exits 2 within seconds, before its actor system starts.
 */
class ControllerStartupTest {
  @TempDir Path dir;
  private final StringWriter err = new StringWriter();

  private int controller(String... args) {
    String[] argv = new String[args.length + 2];
    argv[0] = "controller";
    argv[1] = "--plaintext";
    System.arraycopy(args, 0, argv, 2, args.length);
    return Main.run(new PrintWriter(err, true), argv);
  }

  private String oneLine() {
    String text = err.toString().strip();
    assertThat(text.lines().count()).as("one line: " + text).isEqualTo(1);
    return text;
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void negativeGrpcPortIsExitTwoWithOneLine() {
    assertThat(controller("--grpc-port", "-1", "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: --grpc-port -1: expected a port from 1 to 65535, or 0 for"
        + " any free port");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void dashboardPortOutOfRangeIsExitTwoWithOneLine() {
    assertThat(controller("--dashboard-port", "70000", "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: --dashboard-port 70000: expected a port from 1 to"
        + " 65535, or 0 for no dashboard");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void severalSeedNodesOnAnH2JournalIsExitTwoAskingForPostgres() {
    assertThat(controller("--seed-nodes", "127.0.0.1:25601,127.0.0.1:25602", "--insecure-cluster", "--home",
        dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: --seed-nodes lists 2 nodes, but the journal is an H2"
        + " file, which one controller process alone can use; give the nodes a shared PostgreSQL"
        + " journal (controller.store: {kind: postgres, ...} in --config)");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void badSeedNodeIsExitTwoNamingIt() {
    assertThat(controller("--seed-nodes", "127.0.0.1", "--insecure-cluster", "--grpc-port", "0", "--cluster-port", "0",
        "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: seed node '127.0.0.1': expected HOST:CLUSTER_PORT"
        + " (e.g. 127.0.0.1:2552) or pekko://abfleet@HOST:PORT");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void plaintextSeedNodesWithoutInsecureClusterIsExitTwoNamingTheFix() {
    assertThat(controller("--seed-nodes", "127.0.0.1:25601", "--grpc-port", "0", "--cluster-port", "0",
        "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: seed nodes 127.0.0.1:25601 in plaintext: the cluster port"
        + " would admit any node; configure controller.tls (cluster TLS follows), or pass"
        + " --insecure-cluster on a network only you can reach");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void wildcardClusterHostInPlaintextIsExitTwoEvenWithInsecureCluster() {
    assertThat(controller("--cluster-host", "0.0.0.0", "--insecure-cluster", "--grpc-port", "0",
        "--cluster-port", "0", "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: cluster host 0.0.0.0 in plaintext would open the cluster"
        + " port on every interface, to any node that wants to join; configure controller.tls (cluster"
        + " TLS follows), or pass --cluster-host with one address");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void nonLoopbackClusterHostInPlaintextIsExitTwoWithoutInsecureCluster() {
    assertThat(controller("--cluster-host", "192.0.2.7", "--grpc-port", "0", "--cluster-port", "0",
        "--home", dir.toString())).isEqualTo(2);
    assertThat(oneLine()).startsWith("abfleet: cluster host 192.0.2.7 in plaintext would let other"
        + " machines join this node;").endsWith("or pass --insecure-cluster on a network only you can reach");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void grpcPortInUseIsExitTwoWithOneLineNamingThePort() throws IOException {
    try (ServerSocket busy = new ServerSocket()) {
      busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = busy.getLocalPort();
      assertThat(controller("--grpc-port", String.valueOf(port), "--cluster-port", "0", "--home",
          dir.toString())).isEqualTo(2);
      assertThat(oneLine()).startsWith("abfleet: --grpc-port " + port + ": cannot listen on 127.0.0.1:"
          + port + " (").endsWith("stop the process that uses it or choose another port (0 = any free port)");
    }
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void homeThatIsARegularFileIsExitTwoWithOneLine() throws IOException {
    Path file = Files.writeString(dir.resolve("home"), "not a directory");
    assertThat(controller("--grpc-port", "0", "--cluster-port", "0", "--home", file.toString()))
        .isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: --home " + file + ": " + file + " is a file, not a"
        + " directory; pass a directory (it is created if missing)");
  }

  @Test
  void withoutTlsOrPlaintextTheControllerRefusesToStart() {
    assertThat(Main.run(new PrintWriter(err, true), "controller", "--grpc-port", "0", "--home",
        dir.toString())).isEqualTo(2);
    assertThat(oneLine()).isEqualTo("abfleet: no TLS configured: run `abfleet certs init` and `abfleet"
        + " certs issue --controller NAME --san HOSTS`, set controller.tls.ca, .cert and .key in"
        + " fleet.yaml (--config), or pass --plaintext (controller.plaintext: true) for a"
        + " loopback-only controller");
  }

  @Test
  void plaintextOffLoopbackIsRefused() {
    assertThat(controller("--grpc-host", "0.0.0.0", "--grpc-port", "0", "--home", dir.toString()))
        .isEqualTo(2);
    assertThat(oneLine()).startsWith("abfleet: --plaintext: plaintext gRPC on 0.0.0.0 would be open to"
        + " the network; bind grpc_host to 127.0.0.1, or configure controller.tls");
  }

  /**
   * The first controller runs in its own JVM: H2 and the lock are per process. It is plaintext,
   * and says so once as a warning naming the setting and the fix.
   */
  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void plaintextControllerWarnsAndItsHomeIsExitTwoForASecondNamingItsPid() throws Exception {
    Path home = Files.createDirectory(dir.resolve("home"));
    Process first = TestJvm.start(dir, "first", Main.class, "controller", "--plaintext", "--grpc-port", "0",
        "--cluster-port", "0", "--home", home.toString());
    try {
      awaitServing(first, 150);
      long started = System.nanoTime();
      TestJvm.Result second = TestJvm.run(dir, "second", 60, Main.class, "controller", "--plaintext", "--grpc-port",
          "0", "--cluster-port", "0", "--home", home.toString());
      assertThat(second.exit()).as(second.err()).isEqualTo(2);
      assertThat(second.err()).isEqualTo("abfleet: --home " + home + " is in use by another controller"
          + " (pid " + first.pid() + "); stop it or choose another --home\n");
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).isLessThan(30);

      String err = Eventually.until("the plaintext warning", Duration.ofSeconds(60),
          () -> TestJvm.read(dir, "first.err"), text -> text.contains("is plaintext without client authentication"));
      assertThat(err.lines().filter(l -> l.contains("plaintext without client authentication")))
          .singleElement().asString().contains(" WARN ").contains("(--plaintext)")
          .contains("set controller.tls (abfleet certs init)");
    } finally {
      first.destroy();
      if (!first.waitFor(30, TimeUnit.SECONDS)) {
        first.destroyForcibly();
      }
    }
  }

  private void awaitServing(Process p, int seconds) {
    Eventually.until("the first controller serving", Duration.ofSeconds(seconds), () -> {
      String err = TestJvm.read(dir, "first.err");
      assertThat(p.isAlive()).as(err).isTrue();
      return err;
    }, err -> err.contains("abfleet controller: gRPC on"));
  }
}
