package dev.abfleet.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report. Field names are a public interface (documented in the README):
 * change only with a new {@code format_version}. Numbers that cannot be computed are null.
 */
public final class JsonReport {
  public static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  public static String render(Experiment e) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format_version", FORMAT_VERSION);
    root.put("experiment", e.getExperimentId());
    if (Reports.simulation(e)) {
      root.put("simulation", true);
    }
    root.put("state", e.getState());
    root.put("baseline", Reports.baseline(e));
    ArrayNode cands = root.putArray("candidates");
    Reports.candidates(e).forEach(cands::add);
    if (!Reports.ceiling(e).isEmpty()) {
      root.put("ceiling", Reports.ceiling(e));
    }
    root.put("seed", e.getSeed());
    ObjectNode policy = root.putObject("policy");
    number(policy, "noise_threshold", e.getSpec().getPolicy().getNoiseThreshold());
    number(policy, "alpha", e.getSpec().getPolicy().getAlpha());
    policy.put("pairs", e.getPairsWanted());
    ArrayNode looks = policy.putArray("looks");
    e.getSpec().getPolicy().getLooksList().forEach(looks::add);
    root.put("pairs_done", e.getPairsDone());
    root.put("stopped_early", Reports.stoppedEarly(e));
    root.put("retried_blocks", e.getRetriedBlocks());
    root.put("rejected_stale", e.getRejectedStale());
    root.put("overall", Reports.overall(e));
    ArrayNode classes = root.putArray("host_classes");
    Reports.classPairs(e).forEach((cls, pairs) -> classes.addObject().put("host_class", cls)
        .put("pairs", pairs));
    root.put("class_heterogeneity", Reports.classHeterogeneity(e));
    if (!e.getMessage().isEmpty()) {
      root.put("message", e.getMessage());
    }
    ArrayNode comparisons = root.putArray("comparisons");
    for (Comparison c : e.getComparisonsList()) {
      ObjectNode n = comparisons.addObject();
      n.put("arm", c.getArm());
      n.put("metric", c.getMetric());
      n.put("unit", c.getUnit());
      n.put("better", c.getBetter());
      n.put("gating", c.getGating());
      n.put("n_pairs", c.getNPairs());
      number(n, "baseline_center", c.getBaselineCenter());
      number(n, "candidate_center", c.getCandidateCenter());
      number(n, "change", c.getChange());
      number(n, "ci_low", c.getCiLow());
      number(n, "ci_high", c.getCiHigh());
      number(n, "p_value", c.getPValue());
      number(n, "p_adjusted", c.getPAdjusted());
      n.put("host_class", c.getHostClass());
      n.put("verdict", c.getVerdict());
      if (c.getOfCeiling() > 0) {
        n.put("of_ceiling", c.getOfCeiling());
      }
      strings(n.putArray("reasons"), c.getReasonsList());
      strings(n.putArray("warnings"), c.getWarningsList());
    }
    ArrayNode boots = root.putArray("boots");
    for (Boot b : e.getBootsList()) {
      boots.add(boot(b));
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
      throw new IllegalStateException(ex);
    }
  }

  private static ObjectNode boot(Boot b) {
    ObjectNode n = JSON.createObjectNode();
    n.put("run_id", b.getRunId());
    n.put("arm", b.getArm());
    n.put("host", b.getHostId());
    n.put("pair", b.getPairIndex());
    n.put("order", b.getOrderInPair());
    n.put("lease_epoch", b.getLeaseEpoch());
    n.put("status", b.getStatus());
    if (b.getWarmup()) n.put("warmup_boot", true); // policy warmup_boot: listed, never in a pair
    n.put("hypervisor", b.getTelemetry().getHypervisor());
    n.put("accelerator", b.getTelemetry().getAccelerator());
    n.put("host_class", b.getHostClass());
    n.put("kernel_release", b.getTelemetry().getKernelRelease());
    n.put("boot_ms", b.getTelemetry().getBootMs());
    n.put("run_ms", b.getTelemetry().getRunMs());
    n.put("stage_ms", b.getTelemetry().getStageMs());
    if (!b.getMessage().isEmpty()) {
      n.put("message", b.getMessage());
    }
    if (!b.getConsoleTail().isEmpty()) {
      n.put("console_tail", b.getConsoleTail());
    }
    Map<String, ArrayNode> values = new LinkedHashMap<>();
    Map<String, ArrayNode> warmup = new LinkedHashMap<>();
    ObjectNode v = n.putObject("values");
    ObjectNode w = n.putObject("warmup_values");
    for (MetricSample s : b.getSamplesList()) {
      Map<String, ArrayNode> target = s.getWarmup() ? warmup : values;
      ObjectNode parent = s.getWarmup() ? w : v;
      target.computeIfAbsent(s.getMetric(), parent::putArray).add(s.getValue());
    }
    return n;
  }

  private static void number(ObjectNode n, String field, double value) {
    if (Double.isFinite(value)) {
      n.put(field, value);
    } else {
      n.putNull(field);
    }
  }

  private static void strings(ArrayNode a, List<String> values) {
    values.forEach(a::add);
  }
}
