package dev.abfleet.config;

import java.util.List;
import java.util.Map;

/**
 * The keys of fleet.yaml's controller section that say how controller nodes find each other:
 * {@code discovery}, {@code management_port}, {@code pod_label_selector},
 * {@code required_contact_points}.
 */
final class FormationConfig {
  static final List<String> KEYS = List.of("discovery", "management_port", "pod_label_selector",
      "required_contact_points");
  static final String SEED_NODES = "seed-nodes";
  static final String KUBERNETES_API = "kubernetes-api";

  private FormationConfig() {}

  /** @param m the controller section's keys */
  static FleetConfig.Formation parse(Map<String, YamlNode> m) {
    String discovery = m.containsKey("discovery")
        ? m.get("discovery").oneOf(List.of(SEED_NODES, KUBERNETES_API)) : SEED_NODES;
    int managementPort = m.containsKey("management_port") ? m.get("management_port").integer(1, 65535) : 0;
    boolean kubernetes = discovery.equals(KUBERNETES_API);
    if (!kubernetes) {
      for (String key : List.of("pod_label_selector", "required_contact_points")) {
        if (m.containsKey(key)) {
          throw m.get(key).problem("controller." + key + " is only for discovery: " + KUBERNETES_API
              + "; drop it or set controller.discovery: " + KUBERNETES_API);
        }
      }
      return new FleetConfig.Formation(discovery, managementPort, "", 1);
    }
    YamlNode where = m.get("discovery");
    if (managementPort == 0) {
      throw where.problem("controller.discovery " + KUBERNETES_API + " needs controller.management_port"
          + " (Pekko Management's HTTP port, e.g. 7626): cluster bootstrap probes the other pods there");
    }
    if (m.containsKey("seed_nodes")) {
      throw m.get("seed_nodes").problem("controller.seed_nodes and discovery: " + KUBERNETES_API
          + " exclude each other: cluster bootstrap finds the nodes; drop seed_nodes");
    }
    String selector = m.containsKey("pod_label_selector")
        ? m.get("pod_label_selector").string().trim() : "app=abfleet-controller";
    if (selector.isEmpty()) {
      throw m.get("pod_label_selector").problem("controller.pod_label_selector is empty;"
          + " give the controller pods' labels, e.g. app=abfleet-controller");
    }
    int contactPoints = m.containsKey("required_contact_points")
        ? m.get("required_contact_points").integer(1, 100) : 2;
    return new FleetConfig.Formation(discovery, managementPort, selector, contactPoints);
  }
}
