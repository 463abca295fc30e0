package dev.abfleet.controller;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.util.HashMap;
import java.util.Map;

/** The Pekko configuration of one node: its settings on top of application.conf. */
public final class PekkoConfig {
  private PekkoConfig() {}

  public static final String SYSTEM_NAME = "abfleet";

  public static Config of(ControllerSettings s) {
    Map<String, Object> values = new HashMap<>();
    values.put("pekko.remote.artery.canonical.hostname", s.clusterHost());
    values.put("pekko.remote.artery.canonical.port", s.clusterPort());
    values.put("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(s.seedNodes()));
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
