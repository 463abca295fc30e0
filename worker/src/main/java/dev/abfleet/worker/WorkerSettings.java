package dev.abfleet.worker;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a worker agent runs.
 *
 * @param controller controller address, host:port
 * @param hostId stable id of this host in the fleet
 * @param labels operator labels advertised in Hello
 * @param home abfleet's data directory: artifact cache, guest images, per-boot logs
 */
public record WorkerSettings(String controller, String hostId, Map<String, String> labels, Path home) {

  /** The abfleet.home system property, else $ABFLEET_HOME, else ~/.cache/abfleet. */
  public static Path defaultHome() {
    String prop = System.getProperty("abfleet.home");
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop);
    }
    String env = System.getenv("ABFLEET_HOME");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".cache", "abfleet");
  }

  public static String defaultHostId() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  /** Where boots of this host keep their console and result logs. */
  public Path runsDir() {
    return home.resolve("runs").resolve(hostId);
  }
}
