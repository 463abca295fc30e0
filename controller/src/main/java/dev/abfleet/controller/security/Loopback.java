package dev.abfleet.controller.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a host name or literal is a loopback address, without a DNS lookup for other names. */
public final class Loopback {
  private Loopback() {}

  /** True for localhost, 127.0.0.0/8 and ::1. */
  public static boolean is(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    // Only literals are parsed: a name is resolved by DNS, which an attacker may control.
    if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
