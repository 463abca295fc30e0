package dev.abfleet.cli.certs;

import java.util.regex.Pattern;
import org.bouncycastle.asn1.x509.GeneralName;

/** Subject alternative names of a controller certificate: IP literals and DNS names. */
final class Sans {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:]*:[0-9a-fA-F:.]*");
  private static final Pattern DNS = Pattern.compile(
      "(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");

  private Sans() {}

  /** True for an IPv4 or IPv6 literal. */
  static boolean isIp(String san) {
    return IPV4.matcher(san).matches() || IPV6.matcher(san).matches();
  }

  /**
   * The SAN of {@code value}: an iPAddress for an IP literal, a dNSName otherwise.
   *
   * @throws IllegalArgumentException naming a value that is neither
   */
  static GeneralName generalName(String value) {
    if (isIp(value)) {
      return new GeneralName(GeneralName.iPAddress, value);
    }
    if (!DNS.matcher(value).matches() || value.length() > 253) {
      throw new IllegalArgumentException("--san '" + value + "': expected a DNS name (e.g."
          + " controller.example.org) or an IP address (e.g. 10.0.0.5)");
    }
    return new GeneralName(GeneralName.dNSName, value);
  }
}
