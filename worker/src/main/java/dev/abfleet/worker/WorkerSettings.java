package dev.abfleet.worker;

import dev.abfleet.worker.link.ChannelSecurity;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a worker agent runs.
 *
 * @param controller controller address, host:port, or several separated by commas (any node
 *     of a controller cluster)
 * @param hostId stable id of this host in the fleet
 * @param labels operator labels advertised in Hello
 * @param home abfleet's data directory: artifact cache, guest images, per-boot logs
 * @param buildsImages true = builds a guest image itself for a run that carries none; false =
 *     boots only staged guest images and refuses such runs (macOS, {@code --no-image-build})
 * @param artifactCacheMaxBytes cap of the artifact cache ({@code <home>/artifacts}) in bytes;
 *     least recently used artifacts are evicted to stay under it
 * @param channelSecurity TLS (CA, this worker's certificate and key) or plaintext to loopback
 */
public record WorkerSettings(String controller, String hostId, Map<String, String> labels, Path home,
    boolean buildsImages, long artifactCacheMaxBytes, ChannelSecurity channelSecurity) {

  /** Default {@link #artifactCacheMaxBytes}: 20 GiB. */
  public static final long DEFAULT_ARTIFACT_CACHE_MAX_BYTES = 20L << 30;

  public WorkerSettings {
    channelSecurity = channelSecurity == null ? ChannelSecurity.DEFAULT : channelSecurity;
    if (artifactCacheMaxBytes <= 0) {
      throw new IllegalArgumentException("artifact cache cap " + artifactCacheMaxBytes
          + " bytes: expected a positive number of bytes, e.g. 21474836480 (20 GiB)");
    }
  }

  /** A worker whose channel is {@link ChannelSecurity#DEFAULT}. */
  public WorkerSettings(String controller, String hostId, Map<String, String> labels, Path home,
      boolean buildsImages, long artifactCacheMaxBytes) {
    this(controller, hostId, labels, home, buildsImages, artifactCacheMaxBytes, ChannelSecurity.DEFAULT);
  }

  /** A worker with the default artifact cache cap. */
  public WorkerSettings(String controller, String hostId, Map<String, String> labels, Path home,
      boolean buildsImages) {
    this(controller, hostId, labels, home, buildsImages, DEFAULT_ARTIFACT_CACHE_MAX_BYTES);
  }

  /** A worker that builds guest images unless this host is a Mac ({@link #defaultBuildsImages()}). */
  public WorkerSettings(String controller, String hostId, Map<String, String> labels, Path home) {
    this(controller, hostId, labels, home, defaultBuildsImages());
  }

  /** False on macOS, which has no gcc for Linux guests nor busybox-static: it boots staged images only. */
  public static boolean defaultBuildsImages() {
    return !System.getProperty("os.name", "").startsWith("Mac");
  }

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

  /** These settings with {@code buildsImages} set as given. */
  public WorkerSettings withBuildsImages(boolean builds) {
    return new WorkerSettings(controller, hostId, labels, home, builds, artifactCacheMaxBytes,
        channelSecurity);
  }

  /** These settings with the artifact cache capped at {@code maxBytes}. */
  public WorkerSettings withArtifactCacheMaxBytes(long maxBytes) {
    return new WorkerSettings(controller, hostId, labels, home, buildsImages, maxBytes,
        channelSecurity);
  }

  /** Where boots of this host keep their console and result logs. */
  public Path runsDir() {
    return home.resolve("runs").resolve(hostId);
  }

  /** These settings with the channel to the controller secured as {@code security} says. */
  public WorkerSettings withChannelSecurity(ChannelSecurity security) {
    return new WorkerSettings(controller, hostId, labels, home, buildsImages, artifactCacheMaxBytes,
        security);
  }
}
