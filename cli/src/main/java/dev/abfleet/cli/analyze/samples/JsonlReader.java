package dev.abfleet.cli.analyze.samples;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads per-boot samples as JSON Lines (`analyze` in docs/commands.md): one
 * object per line with experiment (optional), arm, host (optional), pair (optional), boot,
 * metric, value, unit, better, optional iteration and warmup, and status for a failed boot.
 * Optional {@code host_class} (a non-empty string, e.g. "qemu/kvm" or "vz/vz"): paired samples
 * whose pairs span several classes are judged per class with a pooled row that keeps a verdict
 * only when the classes agree; a pair's class is its baseline boot's. Blank lines are skipped;
 * unknown fields are ignored. Values must be finite: NaN and Infinity are read so that the
 * message can say so, then rejected. {@link SampleChecks} checks the samples against each other.
 */
public final class JsonlReader {
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          // A field given twice would silently keep its last value: a sample must say one thing.
          .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  /** How a sample line looks, for messages. */
  public static final String EXAMPLE = "{\"arm\":\"base\",\"boot\":\"b1\",\"metric\":\"stat\",\"value\":1.5}";
  private static final String NEEDS = "; every sample line needs arm, boot, metric and value";
  public static final String DEFAULT_EXPERIMENT = "default";
  /** How a boot ended, as the controller's JSON report and the wire spell it; "ok" = measured. */
  public static final List<String> STATUSES = List.of("ok", "boot_failed", "timeout", "harness_failed", "infra",
      "config");
  /** A file with this many bad lines is not read further (a binary file, the wrong file). */
  public static final int MAX_BAD_LINES = 100;

  private JsonlReader() {}

  /** Reads every line; {@code orderBase} offsets the line order across files. */
  public static Parsed read(String file, TextLines in, long orderBase) throws IOException {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    TextLines.Line l;
    while (errors.size() < MAX_BAD_LINES && (l = in.next()) != null) {
      long line = l.number();
      String text = l.text();
      if (text == null) {
        errors.add(new ParseError(file, line, l.problem()));
        continue;
      }
      if (text.isBlank()) {
        continue;
      }
      try {
        Object parsed = parseLine(text, file + ":" + line, orderBase + line);
        if (parsed instanceof Sample s) {
          samples.add(s);
        } else {
          errors.add(new ParseError(file, line, (String) parsed));
        }
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        // NaN and Infinity are only read to be rejected by name; do not offer them as numbers.
        errors.add(new ParseError(file, line, notJson(text, e.getOriginalMessage())));
      }
    }
    return new Parsed(samples, errors);
  }

  /** Why {@code text} is not a sample object, and what to write instead. */
  private static String notJson(String text, String parserMessage) {
    if (parserMessage.startsWith("Duplicate field ")) {
      return "duplicate field " + parserMessage.substring("Duplicate field ".length())
          + "; give each field once";
    }
    boolean go = text.startsWith("Benchmark") || InputFormat.CONFIG_LINE.matcher(text).matches();
    String fix = go ? "for Go benchmark text pass --input-format gobench"
        : parserMessage.contains("end-of-input") ? "write one JSON object per line (is the file cut short?)"
        : "write one JSON object per line, e.g. " + EXAMPLE;
    return "not a JSON object: " + parserMessage.replace("Number (or 'NaN'/'+INF'/'-INF')", "Number") + "; " + fix;
  }

  /** A Sample, or the error message as a String. */
  private static Object parseLine(String text, String where, long order) throws IOException {
    Map<String, Object> f = new HashMap<>();
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return "expected one JSON object per line, e.g. " + EXAMPLE;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (t) {
          case VALUE_STRING -> f.put(name, p.getText());
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> f.put(name, p.getDoubleValue());
          case VALUE_TRUE, VALUE_FALSE -> f.put(name, t == JsonToken.VALUE_TRUE);
          case VALUE_NULL -> { }
          default -> p.skipChildren();
        }
      }
    }
    String arm = string(f, "arm");
    String boot = string(f, "boot");
    if (arm == null || arm.isEmpty()) {
      return "missing field 'arm'" + NEEDS;
    }
    if (boot == null || boot.isEmpty()) {
      return "missing field 'boot'" + NEEDS;
    }
    String experiment = string(f, "experiment");
    String status = string(f, "status");
    if (status != null && !STATUSES.contains(status)) {
      return "status '" + excerpt(status) + "' is not a boot status; expected one of " + String.join(", ", STATUSES)
          + " (leave status out for a measured boot)";
    }
    boolean failed = status != null && !status.equals("ok");
    Object warmup = f.get("warmup");
    if (warmup != null && !(warmup instanceof Boolean)) {
      return "warmup " + (warmup instanceof String s ? "\"" + excerpt(s) + "\"" : excerpt(string(f, "warmup")))
          + " is not a boolean; write true or false (JSON booleans, unquoted), or leave warmup out for a measured"
          + " value";
    }
    Object pair = wholeNumber(f, "pair");
    if (pair instanceof String problem) {
      return problem;
    }
    Object iteration = wholeNumber(f, "iteration");
    if (iteration instanceof String problem) {
      return problem;
    }
    String metric = string(f, "metric");
    double value = Double.NaN;
    if (!failed) {
      if (metric == null || metric.isEmpty()) {
        return "missing field 'metric' (or a status other than \"ok\" for a failed boot)";
      }
      Object v = f.get("value");
      if (!(v instanceof Double)) {
        return "metric " + metric + ": 'value' must be a number, got "
            + (v == null ? "nothing" : "\"" + v + "\"");
      }
      value = (Double) v;
      if (!Double.isFinite(value)) {
        return "metric " + metric + ": value is " + value + "; values must be finite numbers"
            + " (leave out a value that was not measured)";
      }
    }
    Object hostClass = f.get("host_class");
    if (hostClass != null && !(hostClass instanceof String s && !s.isBlank())) {
      return "host_class must be a non-empty string such as \"qemu/kvm\", got " + hostClass
          + "; leave it out when all boots ran on one class of host";
    }
    String better = string(f, "better");
    if (better != null && !better.equals("higher") && !better.equals("lower")) {
      return "better '" + better + "': expected higher or lower";
    }
    return new Sample(experiment == null ? DEFAULT_EXPERIMENT : experiment, arm,
        string(f, "host"), (Integer) pair, boot, failed ? null : metric, value, string(f, "unit"),
        better, Boolean.TRUE.equals(warmup), failed, order, where, (String) hostClass,
        (Integer) iteration);
  }

  /** The field as an Integer, null when absent, or the error message as a String. */
  private static Object wholeNumber(Map<String, Object> f, String name) {
    Object raw = f.get(name);
    if (raw instanceof Double d) {
      if (d != Math.rint(d) || d < 0 || d > Integer.MAX_VALUE) {
        return name + " " + d + " is not a whole number >= 0";
      }
      return d.intValue();
    }
    return raw == null ? null : name + " must be a number, got \"" + raw + "\"";
  }

  private static String excerpt(String s) {
    return dev.abfleet.model.BenchmarkChecks.quote(s);
  }

  private static String string(Map<String, Object> f, String name) {
    Object v = f.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Double d && d == Math.rint(d)) {
      return Long.toString(d.longValue()); // e.g. "boot": 3
    }
    return v.toString();
  }
}
