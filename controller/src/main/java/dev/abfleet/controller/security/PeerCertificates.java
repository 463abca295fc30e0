package dev.abfleet.controller.security;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** Reads a worker's host id from its certificate. */
public final class PeerCertificates {
  /** The URI SAN prefix that names a worker's host id. */
  public static final String HOST_URN = "urn:abfleet:host:";
  private static final int SAN_URI = 6;

  private PeerCertificates() {}

  /** The host id of the URI SAN {@code urn:abfleet:host:ID}, else the subject CN; empty if neither. */
  public static Optional<String> hostId(X509Certificate cert) {
    try {
      Collection<List<?>> sans = cert.getSubjectAlternativeNames();
      if (sans != null) {
        for (List<?> san : sans) {
          if (((Integer) san.get(0)) == SAN_URI && san.get(1) instanceof String uri
              && uri.startsWith(HOST_URN) && uri.length() > HOST_URN.length()) {
            return Optional.of(uri.substring(HOST_URN.length()));
          }
        }
      }
    } catch (CertificateParsingException e) {
      // An unreadable SAN extension: fall back to the subject.
    }
    return commonName(cert);
  }

  /** The subject's CN, if any. */
  public static Optional<String> commonName(X509Certificate cert) {
    try {
      for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return Optional.of(rdn.getValue().toString());
        }
      }
    } catch (InvalidNameException e) {
      // The JDK produced the name; an unparsable one has no CN for us.
    }
    return Optional.empty();
  }
}
