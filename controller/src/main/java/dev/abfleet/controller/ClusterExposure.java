package dev.abfleet.controller;

import dev.abfleet.controller.security.Loopback;

/**
 * Who can reach a node's cluster port. Pekko's cluster has no authentication of its own: a node
 * that can open a connection to the cluster port can join and then act as a member (list hosts,
 * drain them, cancel experiments through its own gRPC port). With TLS the port is mutual TLS
 * keyed by the fleet CA ({@link dev.abfleet.controller.security.ClusterTls}); without it the
 * port must stay on loopback unless the operator says otherwise.
 */
public final class ClusterExposure {
  private ClusterExposure() {}

  /**
   * Refuses, in plaintext, a wildcard cluster host (always), and seed nodes or a cluster host
   * other than loopback unless {@link ControllerSettings#insecureCluster()}.
   *
   * @throws IllegalArgumentException a one-line message naming the setting and the fix
   */
  public static void check(ControllerSettings s) {
    if (s.security().tls()) {
      return;
    }
    String host = s.clusterHost();
    if (isWildcard(host)) {
      throw new IllegalArgumentException("cluster host " + host + " in plaintext would open the"
          + " cluster port on every interface, to any node that wants to join; configure"
          + " controller.tls (cluster TLS follows), or pass --cluster-host with one address");
    }
    if (s.insecureCluster()) {
      return;
    }
    if (!s.seedNodes().isEmpty()) {
      throw new IllegalArgumentException("seed nodes " + String.join(",", s.seedNodes())
          + " in plaintext: the cluster port would admit any node; configure controller.tls"
          + " (cluster TLS follows), or pass --insecure-cluster on a network only you can reach");
    }
    if (!Loopback.is(host)) {
      throw new IllegalArgumentException("cluster host " + host + " in plaintext would let other"
          + " machines join this node; configure controller.tls (cluster TLS follows), use a"
          + " loopback --cluster-host, or pass --insecure-cluster on a network only you can reach");
    }
  }

  /** 0.0.0.0, ::, and their spellings; what binds every interface. */
  static boolean isWildcard(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      return java.net.InetAddress.getByName(h).isAnyLocalAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }
}
