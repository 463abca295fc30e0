package dev.abfleet.worker.guest;

import com.fasterxml.jackson.databind.JsonNode;

/** Fields of the {@code workload} and {@code workload_end} events, checked apart from the line handling. */
final class WorkloadEvents {

  private WorkloadEvents() {}

  /** A forwarded line, or null when the event is malformed ({@link #lineProblem} says why). */
  static WorkloadLine line(int number, JsonNode node) {
    return lineProblem(node) == null
        ? new WorkloadLine(number, node.get("line").asText(), node.path("cut").asBoolean(false))
        : null;
  }

  static String lineProblem(JsonNode node) {
    JsonNode line = node.get("line");
    if (line == null || !line.isTextual()) {
      return "workload event without a \"line\" string";
    }
    JsonNode cut = node.get("cut");
    if (cut != null && !cut.isBoolean()) {
      return "workload event: \"cut\" must be true or false, got " + GuestProtocol.excerpt(cut.toString());
    }
    return null;
  }

  /** The end event, or null when it is malformed ({@link #endProblem} says why). */
  static WorkloadEnd end(int number, JsonNode node) {
    if (endProblem(node) != null) {
      return null;
    }
    return new WorkloadEnd(number, node.get("exit_status").intValue(), node.path("signal").asInt(0),
        node.path("timed_out").asBoolean(false), node.path("flooded").asBoolean(false),
        node.path("timeout_s").asInt(0), node.path("elapsed_ms").asLong(-1));
  }

  static String endProblem(JsonNode node) {
    JsonNode status = node.get("exit_status");
    if (status == null || !status.isIntegralNumber() || !status.canConvertToInt()) {
      return "workload_end without an integer \"exit_status\"";
    }
    for (String field : new String[] {"signal", "timeout_s", "elapsed_ms"}) {
      JsonNode v = node.get(field);
      if (v != null && !(v.isIntegralNumber() && v.canConvertToInt() && v.intValue() >= -1)) {
        return "workload_end: \"" + field + "\" must be a whole number, got " + GuestProtocol.excerpt(v.toString());
      }
    }
    for (String field : new String[] {"timed_out", "flooded"}) {
      JsonNode v = node.get(field);
      if (v != null && !v.isBoolean()) {
        return "workload_end: \"" + field + "\" must be true or false, got " + GuestProtocol.excerpt(v.toString());
      }
    }
    return null;
  }
}
