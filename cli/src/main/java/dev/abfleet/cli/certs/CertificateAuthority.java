package dev.abfleet.cli.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A small certificate authority for a fleet: EC P-256 keys, ECDSA-SHA256 signatures. It makes
 * the CA itself, controller (server) certificates with DNS/IP SANs, and worker (client)
 * certificates naming the host id in the subject CN and the URI SAN
 * {@code urn:abfleet:host:HOST_ID}, which the controller reads.
 *
 * @param certificate the CA's certificate
 * @param key the CA's private key
 */
public record CertificateAuthority(X509Certificate certificate, PrivateKey key) {
  /** The URI SAN prefix of worker certificates (the controller's PeerCertificates reads it). */
  public static final String HOST_URN = "urn:abfleet:host:";
  private static final SecureRandom RANDOM = new SecureRandom();
  // Clocks of hosts differ a little: a certificate made now must already be valid on them.
  private static final Duration BACKDATE = Duration.ofMinutes(5);

  /** A certificate and its key. */
  public record Issued(X509Certificate certificate, PrivateKey key) {}

  /** A new CA named "abfleet CA", valid for {@code validity}. */
  public static CertificateAuthority create(Duration validity) {
    KeyPair pair = newKeyPair();
    X500Name name = name("abfleet CA");
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b = builder(name, name, validity, pair)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true,
              new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false,
              ext.createSubjectKeyIdentifier(pair.getPublic()));
      return new CertificateAuthority(sign(b, pair.getPrivate()), pair.getPrivate());
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build the CA certificate: " + e, e);
    }
  }

  /**
   * A controller's certificate for {@code name}, valid for the given DNS names and IP
   * addresses ({@code sans}: each is an IP literal or a DNS name). It carries serverAuth (the
   * gRPC port) and clientAuth usage: controller nodes present it to each other on the mutual-TLS
   * cluster port, which refuses certificates without both (worker certificates).
   */
  public Issued issueServer(String name, List<String> sans, Duration validity) {
    List<GeneralName> names = sans.stream().map(Sans::generalName).toList();
    return issue(name, names, new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth},
        validity);
  }

  /** A worker's client certificate naming {@code hostId} (CN and URI SAN). */
  public Issued issueWorker(String hostId, Duration validity) {
    return issue(hostId, List.of(new GeneralName(GeneralName.uniformResourceIdentifier,
        HOST_URN + hostId)), new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth}, validity);
  }

  private Issued issue(String commonName, List<GeneralName> sans, KeyPurposeId[] purposes,
      Duration validity) {
    KeyPair pair = newKeyPair();
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b = builder(
          X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
          name(commonName), validity, pair)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes))
          .addExtension(Extension.subjectAlternativeName, false,
              new GeneralNames(sans.toArray(GeneralName[]::new)))
          .addExtension(Extension.subjectKeyIdentifier, false,
              ext.createSubjectKeyIdentifier(pair.getPublic()))
          .addExtension(Extension.authorityKeyIdentifier, false,
              ext.createAuthorityKeyIdentifier(certificate));
      return new Issued(sign(b, key), pair.getPrivate());
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build the certificate for " + commonName + ": " + e, e);
    }
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject,
      Duration validity, KeyPair pair) {
    Instant now = Instant.now();
    // Positive, 127 bits: unique enough, and within RFC 5280's 20 octets.
    BigInteger serial = new BigInteger(127, RANDOM);
    return new JcaX509v3CertificateBuilder(issuer, serial, Date.from(now.minus(BACKDATE)),
        Date.from(now.plus(validity)), subject, pair.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter().getCertificate(
          b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java runtime cannot make EC P-256 keys: " + e, e);
    }
  }
}
