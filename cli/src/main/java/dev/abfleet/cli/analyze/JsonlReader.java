package dev.abfleet.cli.analyze;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads per-boot samples as JSON Lines (ARCHITECTURE.md, "Formats the tools depend on"): one
 * object per line with experiment (optional), arm, host (optional), pair (optional), boot,
 * metric, value, unit, better, optional iteration and warmup, and status for a failed boot.
 * Optional {@code host_class} (a non-empty string, e.g. "qemu/kvm" or "vz/vz"): paired samples
 * whose pairs span several classes are judged per class with a pooled row that keeps a verdict
 * only when the classes agree; a pair's class is its baseline boot's. Blank lines are skipped;
 * unknown fields are ignored.
 */
final class JsonlReader {
  private static final JsonFactory JSON = new JsonFactory();
  static final String DEFAULT_EXPERIMENT = "default";

  private JsonlReader() {}

  /** Reads every line; {@code orderBase} offsets the line order across files. */
  static Parsed read(String file, BufferedReader in, long orderBase) throws IOException {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    String text;
    long line = 0;
    while ((text = in.readLine()) != null) {
      line++;
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
        errors.add(new ParseError(file, line, "not a JSON object: "
            + e.getOriginalMessage()));
      }
    }
    return new Parsed(samples, errors);
  }

  /** A Sample, or the error message as a String. */
  private static Object parseLine(String text, String where, long order) throws IOException {
    Map<String, Object> f = new HashMap<>();
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return "expected one JSON object per line";
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
      return "missing field 'arm'";
    }
    if (boot == null || boot.isEmpty()) {
      return "missing field 'boot'";
    }
    String experiment = string(f, "experiment");
    String status = string(f, "status");
    boolean failed = status != null && !status.equals("ok");
    Object pairRaw = f.get("pair");
    Integer pair = null;
    if (pairRaw instanceof Double d) {
      if (d != Math.rint(d) || d < 0) {
        return "pair " + d + " is not a whole number >= 0";
      }
      pair = d.intValue();
    } else if (pairRaw != null) {
      return "pair must be a number, got \"" + pairRaw + "\"";
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
        string(f, "host"), pair, boot, failed ? null : metric, value, string(f, "unit"), better,
        Boolean.TRUE.equals(f.get("warmup")), failed, order, where, (String) hostClass);
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
