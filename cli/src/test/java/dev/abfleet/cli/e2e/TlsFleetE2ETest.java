package dev.abfleet.cli.e2e;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A TLS controller process with token auth and mTLS sim worker processes on loopback, set up
 * only with abfleet's own commands (certs, fleet.yaml keys, the bootstrap token).
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class TlsFleetE2ETest {

  @Test
  void mtlsWorkerJoinsAndAnImpostorIsRejected(@TempDir Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    abfleet("certs", "issue", "--controller", "controller", "--san", "127.0.0.1,localhost", "--dir", certs.toString());
    abfleet("certs", "issue", "--worker", "sim-1", "--dir", certs.toString());
    Path fleetYaml = Files.writeString(dir.resolve("fleet.yaml"), "controller:\n"
        + "  tls: {ca: certs/ca.pem, cert: certs/controller.pem, key: certs/controller-key.pem}\n"
        + "  auth: {mode: tokens, bootstrap_token_file: operator.token}\n");
    Path operatorToken = dir.resolve("operator.token");
    String ca = certs.resolve("ca.pem").toString();

    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      Process controller = fleet.startSecuredControllerNode("controller", fleet.grpcPort, Map.of(),
          "--config", fleetYaml.toString(), "--cluster-port", "0",
          "--home", Files.createDirectories(dir.resolve("controller-home")).toString());
      fleet.awaitListening(controller, "controller", fleet.grpcPort);
      await(() -> Files.exists(operatorToken), "the bootstrap token file");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(operatorToken))).isEqualTo("rw-------");
      // The line comes after /metrics is bound, a moment after the gRPC port answers.
      await(() -> fleet.log("controller").contains("TLS, client auth tokens"), "the serving line");
      assertThat(fleet.log("controller")).doesNotContain(Files.readString(operatorToken).strip());

      fleet.startSimWorkerWith("sim-1", "--ca", ca, "--cert", certs.resolve("sim-1.pem").toString(),
          "--key", certs.resolve("sim-1-key.pem").toString());
      // The same certificate, claiming another host.
      fleet.startSimWorkerWith("sim-2", "--ca", ca, "--cert", certs.resolve("sim-1.pem").toString(),
          "--key", certs.resolve("sim-1-key.pem").toString());

      await(() -> hostsList(fleet, operatorToken).contains("sim-1"), "sim-1 listed");
      await(() -> fleet.log("controller").contains("rejected worker identity: certificate names host sim-1"
          + " but Hello claims host sim-2"), "the impostor's rejection in the controller log");
      assertThat(hostsList(fleet, operatorToken)).doesNotContain("sim-2");

      StringWriter err = new StringWriter();
      assertThat(Main.run(new PrintWriter(err, true), "hosts", "list", "--controller", fleet.target(), "--ca", ca))
          .isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).startsWith("abfleet: no API token:");
    }
  }

  private static String hostsList(LocalProcesses fleet, Path token) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      int code = Main.run(new PrintWriter(new StringWriter(), true), "hosts", "list", "--controller",
          fleet.target(), "--ca", fleet.dir.resolve("certs/ca.pem").toString(), "--token-file", token.toString());
      return code == 0 ? out.toString(StandardCharsets.UTF_8) : "";
    } finally {
      System.setOut(stdout);
    }
  }

  private static void abfleet(String... args) {
    StringWriter err = new StringWriter();
    assertThat(Main.run(new PrintWriter(err, true), args)).as(err.toString()).isZero();
  }

  interface Check {
    boolean holds() throws Exception;
  }

  private static void await(Check check, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (check.holds()) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("timed out waiting for " + what);
  }
}
