package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.report.ExperimentFacts;
import dev.abfleet.controller.report.ProtoReports;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import java.util.List;
import java.util.TreeMap;

/**
 * The JSON the dashboard's API endpoints answer. Field names are snake_case as in the proto;
 * changes and intervals are fractions (0.05 = +5%); a number that is not finite is null.
 */
final class DashboardJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DashboardJson() {}

  /** {@code {"listable": bool, "experiments": [experiment...]}}, newest first. */
  static String experiments(List<Experiment> experiments, boolean listable) {
    ObjectNode root = JSON.createObjectNode().put("listable", listable);
    ArrayNode list = root.putArray("experiments");
    experiments.forEach(e -> list.add(experiment(e)));
    return root.toString();
  }

  /**
   * One experiment: id, name, state, pairs_done, pairs_wanted, queue_position (0 = not waiting),
   * eta_seconds (0 = unknown or done), look, overall, gate (pass, fail, inconclusive; "" while
   * nothing is decided), estimates [{metric, arm, change, ci_low,
   * ci_high, verdict}], boots (recorded so far), message, simulation (ran or asks to run on sim
   * hosts: every figure comes from the sim model).
   */
  static ObjectNode experiment(Experiment e) {
    ObjectNode o = JSON.createObjectNode()
        .put("id", e.getExperimentId()).put("name", e.getSpec().getName())
        .put("state", e.getState()).put("pairs_done", e.getPairsDone())
        .put("pairs_wanted", e.getPairsWanted()).put("queue_position", e.getQueuePosition())
        .put("eta_seconds", e.getEtaSeconds()).put("look", ExperimentFacts.look(e))
        .put("overall", e.getOverall()).put("gate", e.getGate());
    ArrayNode estimates = o.putArray("estimates");
    for (ExperimentFacts.Estimate x : ExperimentFacts.estimates(e)) {
      ObjectNode n = estimates.addObject().put("metric", x.metric()).put("arm", x.arm());
      number(n, "change", x.change());
      number(n, "ci_low", x.ciLow());
      number(n, "ci_high", x.ciHigh());
      n.put("verdict", x.verdict());
    }
    return o.put("boots", e.getBootsCount()).put("message", e.getMessage())
        .put("simulation", ProtoReports.simulation(e));
  }

  /**
   * {@code {"hosts": [{host_id, state, arch, hypervisors: [{name, accelerators}], labels,
   * leased_to, lease_epoch, connected, infra_failures, rejected_reports, reason, drain_reason,
   * heartbeat_age_ms, interference: {boots, interfered, noisy_reason}, noise:
   * {median_residual_percent, pairs}}]}} by host id; interference = the host's newest boots and
   * how many were interfered (null before its first boot; noisy_reason empty = not flagged); reason = why
   * quarantined, drain_reason = why an operator drained it (empty = none), heartbeat_age_ms = ms
   * since its worker last spoke (null = not known), noise = its paired noise (null = none yet).
   */
  static String hosts(List<Host> hosts) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode list = root.putArray("hosts");
    hosts.stream().sorted(java.util.Comparator.comparing(Host::getHostId)).forEach(h -> {
      ObjectNode o = list.addObject().put("host_id", h.getHostId()).put("state", h.getState())
          .put("arch", h.getArch());
      ArrayNode hv = o.putArray("hypervisors");
      for (HypervisorCapability c : h.getHypervisorsList()) {
        ArrayNode accels = hv.addObject().put("name", c.getName()).putArray("accelerators");
        c.getAcceleratorsList().forEach(accels::add);
      }
      ObjectNode labels = o.putObject("labels");
      new TreeMap<>(h.getLabelsMap()).forEach(labels::put);
      o.put("leased_to", h.getLeasedTo()).put("lease_epoch", h.getLeaseEpoch())
          .put("connected", h.getConnected()).put("infra_failures", h.getInfraFailures())
          .put("rejected_reports", h.getRejectedReports()).put("reason", h.getStateReason())
          .put("drain_reason", h.getDrainReason());
      if (h.hasHeartbeatAgeMs()) {
        o.put("heartbeat_age_ms", h.getHeartbeatAgeMs());
      } else {
        o.putNull("heartbeat_age_ms");
      }
      if (h.hasInterference()) {
        o.putObject("interference").put("boots", h.getInterference().getBoots())
            .put("interfered", h.getInterference().getInterfered())
            .put("noisy_reason", h.getInterference().getNoisyReason());
      } else {
        o.putNull("interference");
      }
      if (h.hasNoise() && h.getNoise().getPairs() > 0) {
        o.putObject("noise").put("median_residual_percent", h.getNoise().getMedianResidualPercent())
            .put("pairs", h.getNoise().getPairs());
      } else {
        o.putNull("noise");
      }
    });
    return root.toString();
  }

  /** {@code {"error": message}}. */
  static String error(String message) {
    return JSON.createObjectNode().put("error", message).toString();
  }

  private static void number(ObjectNode n, String field, double value) {
    if (Double.isFinite(value)) {
      n.put(field, value);
    } else {
      n.putNull(field);
    }
  }
}
