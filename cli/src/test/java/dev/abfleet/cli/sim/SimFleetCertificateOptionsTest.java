package dev.abfleet.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.Main;
import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.sim.SimModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** abfleet sim-fleet --cert/--key: one certificate per simulated host; errors name the flag and the fix. */
class SimFleetCertificateOptionsTest {
  private final StringWriter err = new StringWriter();

  private int simFleet(Path dir, String... args) {
    List<String> argv = new java.util.ArrayList<>(List.of("sim-fleet", "--controller", "127.0.0.1:1",
        "--home", dir.resolve("home").toString()));
    argv.addAll(List.of(args));
    return Main.run(new PrintWriter(err, true), argv.toArray(String[]::new));
  }

  private static void abfleet(String... args) {
    StringWriter out = new StringWriter();
    assertThat(Main.run(new PrintWriter(out, true), args)).as(out.toString()).isZero();
  }

  @Test
  void rejectsACertificateWithoutItsKey(@TempDir Path dir) throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
    assertThat(simFleet(dir, "--workers", "1", "--ca", ca.toString(), "--cert", ca.toString()))
        .isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --cert without --key; a simulated worker's"
        + " certificate needs both");
  }

  @Test
  void rejectsACertificateWithoutACa(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("h.pem"), "x");
    assertThat(simFleet(dir, "--workers", "1", "--cert", pem.toString(), "--key", pem.toString()))
        .isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --cert without --ca;");
  }

  @Test
  void rejectsOneCertificateForSeveralWorkers(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("h.pem"), "x");
    assertThat(simFleet(dir, "--workers", "3", "--ca", pem.toString(), "--cert", pem.toString(),
        "--key", pem.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --cert " + pem + " for 3 workers: a worker"
        + " certificate names one host id; issue one per host (`abfleet certs issue --worker sim-0001`, ...)");
  }

  @Test
  void rejectsAPlaceholderInOnlyOneOfCertAndKey(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("h.pem"), "x");
    assertThat(simFleet(dir, "--workers", "2", "--ca", pem.toString(), "--cert", dir + "/{host}.pem",
        "--key", pem.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains(": use {host} in both or in neither");
  }

  @Test
  void namesTheHostWhoseCertificateIsMissing(@TempDir Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    abfleet("certs", "issue", "--worker", "sim-0001", "--dir", certs.toString());
    assertThat(simFleet(dir, "--workers", "2", "--ca", certs.resolve("ca.pem").toString(),
        "--cert", certs + "/{host}.pem", "--key", certs + "/{host}-key.pem")).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --cert " + certs.resolve("sim-0002.pem")
        + ": no such readable file for host sim-0002; `abfleet certs issue --worker sim-0002` makes it");
  }

  @Test
  void givesEachCertifiedHostItsOwnFilesAndChannel(@TempDir Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    abfleet("certs", "init", "--dir", certs.toString());
    List<String> hosts = List.of("c-0001", "c-0002", "c-0003");
    for (String host : hosts) {
      abfleet("certs", "issue", "--worker", host, "--dir", certs.toString());
    }
    Path ca = certs.resolve("ca.pem");
    var securityOf = SimCertificates.of(ChannelSecurity.client(ca, null), certs + "/{host}.pem",
        certs + "/{host}-key.pem", hosts);
    assertThat(securityOf.apply("c-0002")).isEqualTo(new ChannelSecurity(ca,
        certs.resolve("c-0002.pem"), certs.resolve("c-0002-key.pem"), null));

    // Nothing listens on port 1; the channels are built (PEMs loaded) without a connection.
    try (SimFleet fleet = SimFleet.start("127.0.0.1:1", 3, "c-", SimModel.defaults(), Map.of(),
        dir.resolve("home"), securityOf, r -> { })) {
      assertThat(fleet.channels()).isEqualTo(3);
    }
    try (SimFleet shared = SimFleet.start("127.0.0.1:1", 3, "c-", SimModel.defaults(), Map.of(),
        dir.resolve("home"), host -> ChannelSecurity.client(ca, null), r -> { })) {
      assertThat(shared.channels()).isEqualTo(1);
    }
  }
}
