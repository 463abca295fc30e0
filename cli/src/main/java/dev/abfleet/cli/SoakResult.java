package dev.abfleet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The judgement of an {@code abfleet soak} experiment: it passes only when it completed, every
 * boot of the kernel completed and no console line matched the console patterns. Boots lost to
 * the host (status infra) are retried by the fleet and listed, not held against the kernel.
 *
 * @param experiment the experiment id
 * @param state the experiment's final state ("completed", "failed", "cancelled")
 * @param message why the experiment failed or was cancelled; empty otherwise
 * @param boots the kernel's boots (host failures excluded), in boot order
 * @param hostFailures boots lost to the host and retried
 */
record SoakResult(String experiment, String state, String message, List<Boot> boots, int hostFailures) {

  private static final String INFRA = "infra";

  static SoakResult of(Experiment e) {
    List<Boot> ordered = e.getBootsList().stream()
        .sorted(Comparator.comparingInt(Boot::getPairIndex).thenComparing(Boot::getWarmup, Comparator.reverseOrder())
            .thenComparingInt(Boot::getOrderInPair))
        .toList();
    List<Boot> kernel = ordered.stream().filter(b -> !b.getStatus().equals(INFRA)).toList();
    return new SoakResult(e.getExperimentId(), e.getState(), e.getMessage(), kernel, ordered.size() - kernel.size());
  }

  /** A boot completed and its console matched no pattern. */
  static boolean clean(Boot b) {
    return b.getStatus().equals("ok") && b.getTelemetry().getConsoleFindings() == 0;
  }

  int cleanBoots() {
    return (int) boots.stream().filter(SoakResult::clean).count();
  }

  boolean passed() {
    return state.equals("completed") && !boots.isEmpty() && cleanBoots() == boots.size();
  }

  /** One line per boot, the console lines of each that printed any, then {@code soak: PASS n/n} or FAIL. */
  String text() {
    StringBuilder out = new StringBuilder();
    int n = boots.size();
    for (int i = 0; i < n; i++) {
      Boot b = boots.get(i);
      int findings = b.getTelemetry().getConsoleFindings();
      out.append(String.format(Locale.ROOT, "boot %d/%d %-4s %5.1f s  ", i + 1, n,
          b.getStatus().equals("ok") ? "ok" : "FAIL", b.getTelemetry().getBootMs() / 1000.0));
      if (!b.getStatus().equals("ok")) {
        out.append(b.getRunId()).append(' ').append(b.getStatus())
            .append(b.getMessage().isEmpty() ? "" : ": " + b.getMessage()).append("  ");
      }
      if (findings == 0) {
        out.append("console clean\n");
      } else {
        out.append(b.getRunId()).append(" console: ").append(findings)
            .append(findings == 1 ? " line matched\n" : " lines matched\n");
        b.getTelemetry().getConsoleLinesList().forEach(l -> out.append("    ").append(l).append('\n'));
        if (findings > b.getTelemetry().getConsoleLinesCount()) {
          out.append("    (").append(findings - b.getTelemetry().getConsoleLinesCount()).append(" more)\n");
        }
      }
    }
    if (hostFailures > 0) {
      out.append(hostFailures).append(hostFailures == 1 ? " boot was" : " boots were")
          .append(" lost to the host and retried (status infra; not the kernel's)\n");
    }
    if (passed()) {
      out.append("soak: PASS ").append(n).append('/').append(n).append('\n');
    } else {
      out.append("soak: FAIL ").append(cleanBoots()).append('/').append(n).append(" boots clean");
      long failed = boots.stream().filter(b -> !b.getStatus().equals("ok")).count();
      long warned = boots.stream().filter(b -> b.getTelemetry().getConsoleFindings() > 0).count();
      out.append(failed > 0 ? ", " + failed + " failed" : "").append(warned > 0 ? ", " + warned + " printed console findings" : "");
      if (!state.equals("completed")) {
        out.append("; experiment ").append(experiment).append(' ').append(state)
            .append(message.isEmpty() ? "" : ": " + message);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** {"soak":"pass"|"fail", "experiment", "state", "boots":[{run_id, status, boot_ms, run_ms, message, console}]} */
  String json() {
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = json.createObjectNode();
    root.put("soak", passed() ? "pass" : "fail");
    root.put("experiment", experiment);
    root.put("state", state);
    if (!message.isEmpty()) {
      root.put("message", message);
    }
    root.put("clean_boots", cleanBoots());
    root.put("host_failures", hostFailures);
    ArrayNode list = root.putArray("boots");
    for (Boot b : boots) {
      ObjectNode n = list.addObject();
      n.put("run_id", b.getRunId());
      n.put("status", b.getStatus());
      n.put("boot_ms", b.getTelemetry().getBootMs());
      n.put("run_ms", b.getTelemetry().getRunMs());
      if (!b.getMessage().isEmpty()) {
        n.put("message", b.getMessage());
      }
      ObjectNode console = n.putObject("console");
      console.put("findings", b.getTelemetry().getConsoleFindings());
      ArrayNode lines = console.putArray("lines");
      b.getTelemetry().getConsoleLinesList().forEach(lines::add);
    }
    try {
      return json.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
