package dev.abfleet.cli.certs;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.controller.security.PeerCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertsCommandTest {
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  @Test
  void initMakesAnEcCaWithAPrivateKey(@TempDir Path dir) throws Exception {
    assertThat(run("certs", "init", "--dir", dir.toString(), "--days", "30")).isZero();

    X509Certificate ca = Pem.readCertificate(dir.resolve("ca.pem"));
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(ca.getPublicKey()).isInstanceOf(ECPublicKey.class);
    assertThat(((ECPublicKey) ca.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
    ca.verify(ca.getPublicKey());
    assertThat(ca.getNotAfter().getTime() - System.currentTimeMillis())
        .isBetween(29L * 86_400_000, 30L * 86_400_000);
    assertThat(perms(dir.resolve("ca-key.pem"))).isEqualTo("rw-------");
    assertThat(Files.readString(dir.resolve("ca-key.pem"))).startsWith("-----BEGIN PRIVATE KEY-----");
    // The key belongs to the certificate.
    Signature sig = Signature.getInstance("SHA256withECDSA");
    sig.initSign(Pem.readEcKey(dir.resolve("ca-key.pem")));
    sig.update(new byte[] {1, 2, 3});
    byte[] signed = sig.sign();
    sig.initVerify(ca.getPublicKey());
    sig.update(new byte[] {1, 2, 3});
    assertThat(sig.verify(signed)).isTrue();
  }

  @Test
  void initRefusesToReplaceACa(@TempDir Path dir) throws Exception {
    assertThat(run("certs", "init", "--dir", dir.toString())).isZero();
    byte[] first = Files.readAllBytes(dir.resolve("ca.pem"));
    assertThat(run("certs", "init", "--dir", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).isEqualTo("abfleet: " + dir.resolve("ca.pem")
        + " exists; pass --force to replace it" + System.lineSeparator());
    assertThat(Files.readAllBytes(dir.resolve("ca.pem"))).isEqualTo(first);
    assertThat(run("certs", "init", "--dir", dir.toString(), "--force")).isZero();
    assertThat(Files.readAllBytes(dir.resolve("ca.pem"))).isNotEqualTo(first);
  }

  @Test
  void controllerCertificateCarriesTheSansAndServerAndClientAuthForTheCluster(@TempDir Path dir) throws Exception {
    run("certs", "init", "--dir", dir.toString());
    assertThat(run("certs", "issue", "--controller", "ctl", "--san", "127.0.0.1,localhost,::1,ctl.example.org",
        "--dir", dir.toString())).isZero();

    X509Certificate cert = Pem.readCertificate(dir.resolve("ctl.pem"));
    cert.verify(Pem.readCertificate(dir.resolve("ca.pem")).getPublicKey());
    assertThat(cert.getSubjectAlternativeNames()).containsExactlyInAnyOrder(
        List.of(7, "127.0.0.1"), List.of(2, "localhost"),
        List.of(7, InetAddress.getByName("::1").getHostAddress()), List.of(2, "ctl.example.org"));
    // serverAuth for the gRPC port, clientAuth for the node's own connections to cluster peers.
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
    assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    assertThat(perms(dir.resolve("ctl-key.pem"))).isEqualTo("rw-------");
  }

  @Test
  void workerCertificateNamesTheHostInCnAndUriSan(@TempDir Path dir) throws Exception {
    run("certs", "init", "--dir", dir.toString());
    assertThat(run("certs", "issue", "--worker", "bench-07", "--dir", dir.toString())).isZero();

    X509Certificate cert = Pem.readCertificate(dir.resolve("bench-07.pem"));
    cert.verify(Pem.readCertificate(dir.resolve("ca.pem")).getPublicKey());
    assertThat(cert.getSubjectAlternativeNames()).containsExactly(List.of(6, "urn:abfleet:host:bench-07"));
    assertThat(PeerCertificates.commonName(cert)).contains("bench-07");
    assertThat(PeerCertificates.hostId(cert)).contains("bench-07");
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
  }

  @Test
  void issueNamesWhatIsMissing(@TempDir Path dir) {
    assertThat(run("certs", "issue", "--worker", "h1", "--dir", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("no CA in " + dir).contains("abfleet certs init");
    run("certs", "init", "--dir", dir.toString());
    err.getBuffer().setLength(0);
    assertThat(run("certs", "issue", "--controller", "ctl", "--dir", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--controller needs --san");
    err.getBuffer().setLength(0);
    assertThat(run("certs", "issue", "--controller", "ctl", "--san", "bad name!", "--dir", dir.toString()))
        .isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--san 'bad name!': expected a DNS name");
    err.getBuffer().setLength(0);
    assertThat(run("certs", "issue", "--worker", "../etc", "--dir", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--worker '../etc' may only use");
  }

  private static String perms(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
