package dev.abfleet.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys of fleet.yaml's controller section that say how its port is protected:
 * {@code tls: {ca, cert, key}}, {@code plaintext} and {@code auth: {mode, bootstrap_token_file}}.
 * Paths are resolved against the fleet.yaml's directory here.
 */
final class SecurityConfig {
  static final List<String> KEYS = List.of("tls", "plaintext", "auth");

  private SecurityConfig() {}

  /**
   * @param m the controller section's keys
   * @param dir the fleet.yaml's directory
   */
  static FleetConfig.ControllerSecurity parse(Map<String, YamlNode> m, Path dir) {
    String ca = "";
    String cert = "";
    String key = "";
    if (m.containsKey("tls")) {
      Map<String, YamlNode> tls = m.get("tls").mapping(Set.of("ca", "cert", "key"));
      ca = path(tls, "ca", dir);
      cert = path(tls, "cert", dir);
      key = path(tls, "key", dir);
      boolean any = !ca.isEmpty() || !cert.isEmpty() || !key.isEmpty();
      for (String k : List.of("ca", "cert", "key")) {
        if (any && path(tls, k, dir).isEmpty()) {
          throw m.get("tls").problem("controller.tls." + k + " is missing; TLS needs ca, cert and key"
              + " (`abfleet certs init` and `abfleet certs issue --controller NAME --san HOSTS` make them)");
        }
      }
    }
    boolean plaintext = m.containsKey("plaintext")
        && m.get("plaintext").oneOf(List.of("true", "false")).equals("true");
    if (plaintext && !ca.isEmpty()) {
      throw m.get("plaintext").problem("controller.plaintext: true and controller.tls are both set;"
          + " keep one (plaintext only on a loopback grpc_host)");
    }
    String mode = "";
    String tokenFile = "";
    if (m.containsKey("auth")) {
      Map<String, YamlNode> auth = m.get("auth").mapping(Set.of("mode", "bootstrap_token_file"));
      if (auth.containsKey("mode") && !auth.get("mode").string().isEmpty()) {
        mode = auth.get("mode").oneOf(List.of("tokens", "none"));
      }
      tokenFile = path(auth, "bootstrap_token_file", dir);
    }
    return new FleetConfig.ControllerSecurity(ca, cert, key, plaintext, mode, tokenFile);
  }

  private static String path(Map<String, YamlNode> m, String key, Path dir) {
    if (!m.containsKey(key) || m.get(key).string().isEmpty()) {
      return "";
    }
    String v = m.get(key).string();
    if (v.startsWith("~/")) {
      v = System.getProperty("user.home") + v.substring(1);
    }
    return dir.resolve(v).normalize().toString();
  }
}
