package dev.abfleet.worker.guest;

import dev.abfleet.model.WorkloadMetrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Parser of the guest protocol: one JSON object per line on the boot's results channel (see
 * the header of guest/src/main/c/fleetbench.c, which is its definition).
 *
 * <p>Pure and total: any input yields a {@link ParsedRun}; lines that are not protocol become
 * {@link ParseError}s and never samples. Serial noise is tolerated: carriage returns are removed
 * and bytes before the first {@code '{'} that starts a whole JSON object are skipped. A
 * workload's output arrives inside {@code workload} events (a JSON string), so nothing it prints
 * can pass for a protocol line.
 */
public final class GuestProtocol {

  /** Longer lines are rejected without parsing; real protocol lines are ~150 bytes. */
  static final int MAX_LINE_CHARS = 64 * 1024;
  /**
   * Parse errors kept in full; later ones are only counted. A results channel full of garbage
   * (a guest writing noise) must cost a report a few lines, not one error per garbage line.
   */
  static final int MAX_PARSE_ERRORS = 20;
  /** How many {@code '{'} positions of one noisy line are tried as the object start. */
  private static final int MAX_START_CANDIDATES = 16;
  private static final String EVENTS = "start, done, error, telemetry, setup_error, workload or workload_end";

  private static final ObjectMapper JSON =
      JsonMapper.builder(new JsonFactory())
          // Accepted so that NaN/Infinity get a precise "non-finite" error, not "not JSON".
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE)
          .build();

  private GuestProtocol() {}

  /** Parses a whole results file; malformed UTF-8 (serial noise) is replaced, not fatal. */
  public static ParsedRun parse(byte[] contents) {
    return parse(contents == null ? "" : new String(contents, StandardCharsets.UTF_8));
  }

  /** Parses the text of a results channel, lines separated by {@code \n} or {@code \r\n}. */
  public static ParsedRun parse(String contents) {
    return parse(contents == null ? List.of() : List.of(contents.split("\n", -1)));
  }

  /** Parses results lines; element i is line i+1. Null elements count as empty lines. */
  public static ParsedRun parse(List<String> lines) {
    Builder b = new Builder();
    if (lines != null) {
      int number = 0;
      for (String raw : lines) {
        number++;
        try {
          b.line(number, raw);
        } catch (RuntimeException e) {
          // Defensive: a parser bug must cost one line, not the run.
          b.error(number, "internal parser error: " + e);
        }
      }
    }
    return b.build();
  }

  /** Mutable accumulator for one parse. */
  private static final class Builder {
    private GuestStart start;
    private final List<GuestSample> samples = new ArrayList<>();
    private boolean done;
    private OptionalLong elapsedMs = OptionalLong.empty();
    private final List<HarnessError> harnessErrors = new ArrayList<>();
    private final List<SetupError> setupErrors = new ArrayList<>();
    private final List<GuestCounters> counters = new ArrayList<>();
    private final List<ParseError> errors = new ArrayList<>();
    private int errorsOmitted;
    private final List<WorkloadLine> workloadLines = new ArrayList<>();
    private WorkloadEnd workloadEnd;

    void error(int number, String message) {
      if (errors.size() < MAX_PARSE_ERRORS) {
        errors.add(new ParseError(number, message));
      } else {
        errorsOmitted++;
      }
    }

    void line(int number, String raw) {
      String line = raw == null ? "" : raw.replace("\r", "");
      if (line.isBlank()) {
        return;
      }
      if (line.length() > MAX_LINE_CHARS) {
        error(number, "line too long: " + line.length() + " characters, past " + MAX_LINE_CHARS
            + "; write one protocol object per line (a workload's output goes in workload events)");
        return;
      }
      Optional<JsonNode> object = firstObject(line);
      if (object.isEmpty()) {
        error(number, "not a JSON object: " + excerpt(line) + "; write one protocol object per line");
        return;
      }
      JsonNode node = object.get();
      if (node.has("event")) {
        event(number, node);
      } else if (node.has("metric")) {
        sample(number, node).ifPresent(samples::add);
      } else {
        error(number, "neither \"event\" nor \"metric\": " + excerpt(line)
            + "; a protocol line is an event or a sample");
      }
    }

    private void event(int number, JsonNode node) {
      String event = node.get("event").asText();
      switch (event) {
        case "start" -> {
          if (start != null) {
            error(number, "second start event (the first one is kept)");
            return;
          }
          start =
              new GuestStart(
                  text(node, "harness"),
                  text(node, "version"),
                  text(node, "kernel"),
                  text(node, "arch"),
                  nonNegativeLong(node, "uptime_ms"));
        }
        case "done" -> {
          done = true;
          elapsedMs = nonNegativeLong(node, "elapsed_ms");
          if (elapsedMs.isEmpty() && node.hasNonNull("elapsed_ms")) {
            error(number, "done: \"elapsed_ms\" must be a whole number of milliseconds >= 0, got "
                + excerpt(node.get("elapsed_ms").toString()) + " (the run time is left unknown)");
          }
        }
        case "error" ->
            harnessErrors.add(new HarnessError(number, text(node, "metric"), text(node, "message")));
        case "telemetry" -> counters(number, node);
        case "setup_error" -> setupErrors.add(new SetupError(number, text(node, "step"), text(node, "message")));
        case "workload" -> workloadLine(number, node);
        case "workload_end" -> workloadEnd(number, node);
        default -> error(number, "unknown event '" + excerpt(event) + "'; expected " + EVENTS);
      }
    }

    private Optional<GuestSample> sample(int number, JsonNode node) {
      String problem = SampleFields.problem(node);
      if (problem != null) {
        error(number, problem);
        return Optional.empty();
      }
      return Optional.of(
          new GuestSample(
              node.get("metric").asText(),
              node.get("value").doubleValue(),
              node.get("unit").asText(),
              Better.fromWire(node.get("better").asText()).orElseThrow(),
              node.get("iteration").intValue(),
              node.path("warmup").asBoolean(false)));
    }

    private void workloadLine(int number, JsonNode node) {
      WorkloadLine line = WorkloadEvents.line(number, node);
      if (line == null) {
        error(number, WorkloadEvents.lineProblem(node));
      } else {
        workloadLines.add(line);
      }
    }

    private void workloadEnd(int number, JsonNode node) {
      if (workloadEnd != null) {
        error(number, "second workload_end event (the first one is kept)");
        return;
      }
      workloadEnd = WorkloadEvents.end(number, node);
      if (workloadEnd == null) {
        error(number, WorkloadEvents.endProblem(node));
      }
    }

    /** A telemetry event; a malformed one is a parse error, never half a record. */
    private void counters(int number, JsonNode node) {
      TelemetryEvents.Parsed t = TelemetryEvents.parse(node);
      if (t.problem() != null) {
        error(number, t.problem());
      } else {
        counters.add(t.counters());
      }
    }

    ParsedRun build() {
      return new ParsedRun(Optional.ofNullable(start), samples, done, elapsedMs, harnessErrors,
          errors, errorsOmitted, counters, setupErrors, workloadLines, Optional.ofNullable(workloadEnd));
    }
  }

  /**
   * The first JSON object that spans from some {@code '{'} to the end of the line. Trying each
   * {@code '{'} in turn (not just the first) survives noise that itself contains a brace.
   */
  static Optional<JsonNode> firstObject(String line) {
    int from = line.indexOf('{');
    for (int tries = 0; from >= 0 && tries < MAX_START_CANDIDATES; tries++) {
      try {
        JsonNode node = JSON.readTree(line.substring(from));
        if (node != null && node.isObject()) {
          return Optional.of(node);
        }
      } catch (Exception e) {
        // Not an object starting here: try the next brace.
      }
      from = line.indexOf('{', from + 1);
    }
    return Optional.empty();
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? "" : v.asText();
  }

  private static OptionalLong nonNegativeLong(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && v.canConvertToLong() && v.isIntegralNumber() && v.longValue() >= 0
        ? OptionalLong.of(v.longValue())
        : OptionalLong.empty();
  }

  static String excerpt(String s) {
    return WorkloadMetrics.excerpt(s);
  }
}
