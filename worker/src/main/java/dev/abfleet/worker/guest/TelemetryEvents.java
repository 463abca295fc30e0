package dev.abfleet.worker.guest;

import static dev.abfleet.worker.guest.GuestProtocol.excerpt;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The harness's telemetry event: what the guest kernel counted during a metric. */
final class TelemetryEvents {

  private TelemetryEvents() {}

  /** The counters, or (counters null) what is wrong with the event. */
  record Parsed(GuestCounters counters, String problem) {}

  /** A malformed event gives a problem, never half a record. */
  static Parsed parse(JsonNode node) {
    JsonNode metric = node.get("metric");
    JsonNode work = node.path("work");
    if (metric == null || !metric.isTextual() || metric.asText().isEmpty()) {
      return new Parsed(null, "telemetry without a metric");
    }
    String name = metric.asText();
    String problem = null;
    if (!work.isMissingNode() && !(work.isNumber() && work.doubleValue() >= 0)) {
      problem = "work must be a number >= 0";
    }
    Map<String, Long> interrupts = new LinkedHashMap<>();
    Map<String, List<Long>> irqPerCpu = new LinkedHashMap<>();
    Map<String, List<Long>> softirqPerCpu = new LinkedHashMap<>();
    List<Long> wakeups = new ArrayList<>();
    List<Double> rates = new ArrayList<>();
    if (problem == null) {
      problem = sums(node.path("interrupts"), interrupts);
    }
    if (problem == null) {
      problem = perCpuRows(node, "interrupts_per_cpu", irqPerCpu);
    }
    if (problem == null) {
      problem = perCpuRows(node, "softirqs_per_cpu", softirqPerCpu);
    }
    if (problem == null) {
      problem = counts(node.path("wakeups_per_cpu"), "wakeups_per_cpu", wakeups);
    }
    if (problem == null) {
      problem = rates(node.path("thread_rates"), rates);
    }
    if (problem != null) {
      return new Parsed(null, "telemetry of " + excerpt(name) + ": " + problem);
    }
    JsonNode unit = node.get("work_unit");
    return new Parsed(new GuestCounters(name, work.asDouble(0), unit == null || unit.isNull() ? "" : unit.asText(),
        interrupts, count(node, "context_switches"), count(node, "interrupts_total"),
        irqPerCpu, softirqPerCpu, wakeups, rates), null);
  }

  /** {"ROW": n, ...}: each row summed over CPUs; returns what is wrong, or null. */
  private static String sums(JsonNode rows, Map<String, Long> into) {
    if (!rows.isMissingNode() && !rows.isObject()) {
      return "interrupts must be an object";
    }
    for (var it = rows.fields(); it.hasNext(); ) {
      var row = it.next();
      if (!row.getValue().canConvertToLong() || row.getValue().longValue() < 0) {
        return "interrupt row " + excerpt(row.getKey()) + " must be a count >= 0";
      }
      into.put(row.getKey(), row.getValue().longValue());
    }
    return null;
  }

  /** {"ROW":[n,...],...} at field; returns what is wrong, or null. */
  private static String perCpuRows(JsonNode node, String field, Map<String, List<Long>> rows) {
    JsonNode object = node.path(field);
    if (object.isMissingNode()) {
      return null;
    }
    if (!object.isObject()) {
      return field + " must be an object";
    }
    for (var it = object.fields(); it.hasNext(); ) {
      var row = it.next();
      List<Long> counts = new ArrayList<>();
      String problem = counts(row.getValue(), field + " row " + excerpt(row.getKey()), counts);
      if (problem != null) {
        return problem;
      }
      rows.put(row.getKey(), counts);
    }
    return null;
  }

  /** An array of counts >= 0 (a missing one is empty); returns what is wrong, or null. */
  private static String counts(JsonNode array, String what, List<Long> into) {
    if (array.isMissingNode()) {
      return null;
    }
    if (!array.isArray()) {
      return what + " must be an array of counts";
    }
    for (JsonNode n : array) {
      if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < 0) {
        return what + " must hold counts >= 0, got " + excerpt(n.toString());
      }
      into.add(n.longValue());
    }
    return null;
  }

  private static String rates(JsonNode array, List<Double> into) {
    if (array.isMissingNode()) {
      return null;
    }
    if (!array.isArray()) {
      return "thread_rates must be an array of numbers";
    }
    for (JsonNode n : array) {
      if (!n.isNumber() || !(n.doubleValue() >= 0) || Double.isInfinite(n.doubleValue())) {
        return "thread_rates must hold rates >= 0, got " + excerpt(n.toString());
      }
      into.add(n.doubleValue());
    }
    return null;
  }

  /** A count >= 0, or -1 = unknown. */
  private static long count(JsonNode node, String field) {
    JsonNode n = node.get(field);
    return n != null && n.canConvertToLong() && n.longValue() >= 0 ? n.longValue() : -1;
  }
}
