package dev.abfleet.cli.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Set;

/** PEM files: certificates, and PKCS#8 private keys written with mode 0600. */
final class Pem {
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r--r--");

  private Pem() {}

  static void writeCertificate(Path file, X509Certificate cert) throws IOException {
    try {
      write(file, block("CERTIFICATE", cert.getEncoded()), PUBLIC);
    } catch (CertificateException e) {
      throw new IOException("cannot encode the certificate: " + e.getMessage(), e);
    }
  }

  /** The key as PKCS#8 ("PRIVATE KEY"), readable by its owner only. */
  static void writeKey(Path file, PrivateKey key) throws IOException {
    write(file, block("PRIVATE KEY", key.getEncoded()), OWNER_ONLY);
  }

  static X509Certificate readCertificate(Path file) throws IOException {
    try (var in = Files.newInputStream(file)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (CertificateException e) {
      throw new IOException(file + " is not a PEM certificate: " + e.getMessage(), e);
    }
  }

  static PrivateKey readEcKey(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = text.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < begin) {
      throw new IOException(file + " is not a PEM PKCS#8 private key (BEGIN PRIVATE KEY)");
    }
    byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + 27, end));
    try {
      return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IOException(file + " is not an EC private key: " + e.getMessage(), e);
    }
  }

  private static String block(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /** Writes through a temporary file created with {@code mode}, so a key is never world-readable. */
  private static void write(Path file, String text, Set<PosixFilePermission> mode) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(mode));
    } catch (UnsupportedOperationException e) {
      Files.createFile(tmp);
    }
    Files.writeString(tmp, text, StandardCharsets.US_ASCII);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
