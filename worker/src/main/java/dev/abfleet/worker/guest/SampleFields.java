package dev.abfleet.worker.guest;

import com.fasterxml.jackson.databind.JsonNode;

/** Validation of a sample line's fields, kept apart from the line handling. */
final class SampleFields {

  private SampleFields() {}

  /** What every sample line carries, for messages about a missing field. */
  static final int MAX_NAME = 128;
  private static final java.util.regex.Pattern CONTROL = java.util.regex.Pattern.compile("\\p{Cntrl}");
  private static final String NEEDS = "; a sample needs metric, value, unit, better and iteration";

  /** What is wrong with a sample object, or null if it is a valid sample. */
  static String problem(JsonNode node) {
    JsonNode metric = node.get("metric");
    if (!metric.isTextual() || metric.asText().isEmpty()) {
      return "\"metric\" must be a non-empty string, got " + GuestProtocol.excerpt(metric.toString());
    }
    String name = metric.asText();
    if (name.length() > MAX_NAME || CONTROL.matcher(name).find()) {
      // Names reach reports, logs and terminals: a guest must not write escapes or pages there.
      return "\"metric\" " + GuestProtocol.excerpt(name) + " is not a metric name; use at most " + MAX_NAME
          + " printable characters";
    }
    JsonNode value = node.get("value");
    if (value == null) {
      return name + ": missing field \"value\"" + NEEDS;
    }
    if (!value.isNumber()) {
      return name + ": \"value\" must be a number, got " + GuestProtocol.excerpt(value.toString());
    }
    if (!Double.isFinite(value.doubleValue())) {
      return name + ": non-finite value " + value.asText() + "; report finite numbers (leave out a value that"
          + " was not measured)";
    }
    JsonNode unit = node.get("unit");
    if (unit == null || !unit.isTextual() || unit.asText().isEmpty()) {
      return name + ": missing field \"unit\"" + NEEDS;
    }
    JsonNode better = node.get("better");
    if (better == null) {
      return name + ": missing field \"better\"" + NEEDS;
    }
    if (Better.fromWire(better.asText()).isEmpty() || !better.isTextual()) {
      return name + ": unknown better '" + GuestProtocol.excerpt(better.asText())
          + "'; expected higher or lower";
    }
    JsonNode iteration = node.get("iteration");
    if (iteration == null) {
      return name + ": missing field \"iteration\"" + NEEDS;
    }
    if (!iteration.isIntegralNumber() || !iteration.canConvertToInt() || iteration.intValue() < 0) {
      return name + ": \"iteration\" must be a non-negative integer, got "
          + GuestProtocol.excerpt(iteration.toString());
    }
    JsonNode warmup = node.get("warmup");
    if (warmup != null && !warmup.isBoolean()) {
      return name + ": \"warmup\" must be true or false, got " + GuestProtocol.excerpt(warmup.toString());
    }
    return null;
  }
}
