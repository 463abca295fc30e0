package dev.abfleet.controller;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.abfleet.controller.security.ClusterTls;
import dev.abfleet.controller.security.Security;
import java.util.HashMap;
import java.util.regex.Pattern;
import java.util.Map;

/** The Pekko configuration of one node: its settings on top of application.conf. */
public final class PekkoConfig {
  private PekkoConfig() {}

  public static final String SYSTEM_NAME = "abfleet";

  private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.-]+):(\\d{1,5})");

  /**
   * A seed node as Pekko names it: {@code host:port} (the node's cluster port) becomes
   * {@code pekko://abfleet@host:port}; a full {@code pekko://} address is kept.
   *
   * @throws IllegalArgumentException for anything else, naming the value and the forms expected
   */
  static String seedAddress(String seed) {
    if (seed.startsWith("pekko://")) {
      return seed;
    }
    if (!HOST_PORT.matcher(seed).matches()) {
      throw new IllegalArgumentException("seed node '" + seed + "': expected HOST:CLUSTER_PORT"
          + " (e.g. 127.0.0.1:2552) or pekko://" + SYSTEM_NAME + "@HOST:PORT");
    }
    return "pekko://" + SYSTEM_NAME + "@" + seed;
  }

  public static Config of(ControllerSettings s) {
    Map<String, Object> values = new HashMap<>();
    values.put("pekko.remote.artery.canonical.hostname", s.clusterHost());
    values.put("pekko.remote.artery.canonical.port", s.clusterPort());
    values.put("pekko.cluster.seed-nodes",
        ConfigValueFactory.fromIterable(s.seedNodes().stream().map(PekkoConfig::seedAddress).toList()));
    if (s.security().transport() instanceof Security.Tls tls) {
      // Mutual TLS on the cluster port whenever the gRPC port is TLS: see ClusterTls.
      values.put("pekko.remote.artery.transport", "tls-tcp");
      values.put("pekko.remote.artery.ssl.ssl-engine-provider", ClusterTls.class.getName());
      values.put(ClusterTls.CONFIG_PATH + ".ca", tls.ca().toAbsolutePath().toString());
      values.put(ClusterTls.CONFIG_PATH + ".cert", tls.cert().toAbsolutePath().toString());
      values.put(ClusterTls.CONFIG_PATH + ".key", tls.key().toAbsolutePath().toString());
    }
    if (s.store() == ControllerSettings.Store.IN_MEMORY) {
      values.put("pekko.persistence.journal.plugin", "pekko.persistence.journal.inmem");
      values.put("pekko.persistence.snapshot-store.plugin", "");
    } else {
      String db = "pekko-persistence-jdbc.shared-databases.slick.";
      boolean postgres = s.storeUrl().startsWith("jdbc:postgresql:");
      values.put(db + "profile", postgres ? "slick.jdbc.PostgresProfile$" : "slick.jdbc.H2Profile$");
      values.put(db + "db.driver", postgres ? "org.postgresql.Driver" : "org.h2.Driver");
      values.put(db + "db.url", s.storeUrl());
      values.put(db + "db.user", s.storeUser());
      values.put(db + "db.password", s.storePassword());
    }
    return ConfigFactory.parseMap(values)
        .withFallback(ConfigFactory.load(PekkoConfig.class.getClassLoader()));
  }
}
