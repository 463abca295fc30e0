package dev.abfleet.worker.guest;

import dev.abfleet.model.WorkloadMetrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns what a workload printed on its standard output into samples. Pure and total: any lines
 * yield a {@link Parsed}; a line that is not valid output becomes a {@link ParseError} quoting it
 * and never a sample.
 *
 * <ul>
 *   <li>{@code jsonl}: one JSON object per line, {@code {"metric":"x","value":1.5,"unit":"ops/s",
 *       "better":"higher"}}, optionally {@code "warmup":true}; blank lines are skipped, every other
 *       line must be such an object.
 *   <li>{@code gobench}: Go benchmark text read by {@link GoBenchLine}, one metric per unit named
 *       by {@link WorkloadMetrics#goBenchName}; lines not starting with {@code Benchmark} are
 *       skipped; a bad {@code Benchmark} line gives no sample at all.
 * </ul>
 *
 * <p>Names and units follow {@link WorkloadMetrics}. A metric keeps the unit and direction of its
 * first line. A sample's iteration is the index of its metric's line (0 for the first line of that
 * metric, warm-ups included).
 */
public final class WorkloadOutput {

  /** Longest quote of an offending line in a message. */
  public static final int MAX_QUOTE = 200;
  /** Parse errors kept in full; later ones are only counted. */
  static final int MAX_ERRORS = 20;
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  private static final ObjectMapper JSON =
      JsonMapper.builder(new JsonFactory())
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** How a workload's output is read. */
  public enum Format {
    JSONL,
    GOBENCH;

    /** "jsonl" (also ""), "gobench"; empty for anything else. */
    public static Optional<Format> fromWire(String s) {
      if (s == null || s.isEmpty() || s.equals("jsonl")) {
        return Optional.of(JSONL);
      }
      return s.equals("gobench") ? Optional.of(GOBENCH) : Optional.empty();
    }

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A line that gave no sample.
   *
   * @param stdoutLine 1-based line of the workload's standard output
   * @param text the line as printed
   * @param problem what is wrong with it
   */
  public record BadLine(int stdoutLine, String text, String problem) {
    /** {@code stdout line 3 'text' (problem)}, the text quoted to {@link #MAX_QUOTE} characters. */
    public String describe() {
      return "stdout line " + stdoutLine + " " + quote(text) + " (" + problem + ")";
    }
  }

  /**
   * What the output gave.
   *
   * @param samples the samples, in output order
   * @param errors bad lines as results-channel parse errors, the first {@link #MAX_ERRORS}
   * @param errorsOmitted further bad lines, counted
   * @param firstBad the first bad line; empty when every line was valid or skipped
   */
  public record Parsed(List<GuestSample> samples, List<ParseError> errors, int errorsOmitted,
      Optional<BadLine> firstBad) {
    public Parsed {
      samples = List.copyOf(samples);
      errors = List.copyOf(errors);
    }
  }

  private WorkloadOutput() {}

  public static Parsed parse(Format format, List<WorkloadLine> lines) {
    Reader r = new Reader(format);
    int stdoutLine = 0;
    for (WorkloadLine line : lines) {
      stdoutLine++;
      try {
        r.line(stdoutLine, line);
      } catch (RuntimeException e) {
        // Defensive: a parser bug must cost one line, not the run.
        r.bad(stdoutLine, line, "internal parser error: " + e);
      }
    }
    return new Parsed(r.samples, r.errors, r.omitted, Optional.ofNullable(r.firstBad));
  }

  /** {@code 'text'}: control characters shown as {@code ?}, cut to {@link #MAX_QUOTE} characters. */
  public static String quote(String text) {
    String printable = CONTROL.matcher(text == null ? "" : text).replaceAll("?");
    return "'" + (printable.length() <= MAX_QUOTE ? printable : printable.substring(0, MAX_QUOTE - 3) + "...") + "'";
  }

  /** Mutable accumulator for one parse. */
  private static final class Reader {
    private final Format format;
    private final List<GuestSample> samples = new ArrayList<>();
    private final List<ParseError> errors = new ArrayList<>();
    private final Map<String, Integer> iterations = new HashMap<>();
    private final Map<String, GuestSample> first = new HashMap<>();
    private int omitted;
    private BadLine firstBad;

    Reader(Format format) {
      this.format = format;
    }

    void line(int stdoutLine, WorkloadLine line) {
      String text = line.text().endsWith("\r") ? line.text().substring(0, line.text().length() - 1) : line.text();
      if (format == Format.GOBENCH) {
        goBench(stdoutLine, line, text);
      } else if (!text.isBlank()) {
        jsonl(stdoutLine, line, text);
      }
    }

    private void goBench(int stdoutLine, WorkloadLine line, String text) {
      GoBenchLine.Line parsed = GoBenchLine.parse(text);
      if (!parsed.benchmark()) {
        return;
      }
      if (line.cut()) {
        bad(stdoutLine, line, "longer than fleetbench forwards (4096 bytes), cut");
        return;
      }
      if (parsed.error() != null) {
        bad(stdoutLine, line, parsed.error());
        return;
      }
      List<GuestSample> out = new ArrayList<>();
      for (GoBenchLine.Measurement m : parsed.measurements()) {
        String name = WorkloadMetrics.goBenchName(parsed.name(), m.unit());
        Optional<String> problem = WorkloadMetrics.nameProblem(name).or(() -> WorkloadMetrics.unitProblem(m.unit()));
        if (problem.isPresent()) {
          bad(stdoutLine, line, problem.get());
          return;
        }
        out.add(new GuestSample(name, m.value(), m.unit(), m.better(), 0, false));
      }
      addAll(stdoutLine, line, out);
    }

    private void jsonl(int stdoutLine, WorkloadLine line, String text) {
      if (line.cut()) {
        bad(stdoutLine, line, "longer than fleetbench forwards (4096 bytes), cut");
        return;
      }
      JsonNode node;
      try {
        node = JSON.readTree(text);
      } catch (Exception e) {
        node = null;
      }
      if (node == null || !node.isObject()) {
        bad(stdoutLine, line, "not a JSON object; expected {\"metric\":\"x\",\"value\":1.5,\"unit\":\"ops/s\","
            + "\"better\":\"higher\"}");
        return;
      }
      String problem = jsonProblem(node);
      if (problem != null) {
        bad(stdoutLine, line, problem);
        return;
      }
      addAll(stdoutLine, line, List.of(new GuestSample(node.get("metric").asText(), node.get("value").doubleValue(),
          node.get("unit").asText(), Better.fromWire(node.get("better").asText()).orElseThrow(), 0,
          node.path("warmup").asBoolean(false))));
    }

    /** Adds the line's samples, numbered, unless one contradicts its metric's first line. */
    private void addAll(int stdoutLine, WorkloadLine line, List<GuestSample> out) {
      for (GuestSample s : out) {
        GuestSample seen = first.get(s.metric());
        if (seen != null && (!seen.unit().equals(s.unit()) || seen.better() != s.better())) {
          bad(stdoutLine, line, "metric " + s.metric() + " was first reported in " + seen.unit() + " ("
              + seen.better().wire() + " is better); a metric keeps one unit and direction");
          return;
        }
      }
      for (GuestSample s : out) {
        first.putIfAbsent(s.metric(), s);
        int iteration = iterations.merge(s.metric(), 1, Integer::sum) - 1;
        samples.add(new GuestSample(s.metric(), s.value(), s.unit(), s.better(), iteration, s.warmup()));
      }
    }

    void bad(int stdoutLine, WorkloadLine line, String problem) {
      BadLine b = new BadLine(stdoutLine, line.text(), problem);
      if (firstBad == null) {
        firstBad = b;
      }
      if (errors.size() < MAX_ERRORS) {
        errors.add(new ParseError(line.lineNumber(), "workload " + b.describe()));
      } else {
        omitted++;
      }
    }
  }

  /** What is wrong with a jsonl sample object, or null. */
  private static String jsonProblem(JsonNode node) {
    JsonNode metric = node.get("metric");
    if (metric == null || !metric.isTextual()) {
      return "missing \"metric\" string";
    }
    Optional<String> name = WorkloadMetrics.nameProblem(metric.asText());
    if (name.isPresent()) {
      return name.get();
    }
    JsonNode value = node.get("value");
    if (value == null || !value.isNumber()) {
      return "\"value\" must be a number";
    }
    if (!Double.isFinite(value.doubleValue())) {
      return "non-finite value " + value.asText();
    }
    JsonNode unit = node.get("unit");
    if (unit == null || !unit.isTextual()) {
      return "missing \"unit\" string";
    }
    Optional<String> unitProblem = WorkloadMetrics.unitProblem(unit.asText());
    if (unitProblem.isPresent()) {
      return unitProblem.get();
    }
    JsonNode better = node.get("better");
    if (better == null || !better.isTextual() || Better.fromWire(better.asText()).isEmpty()) {
      return "\"better\" must be \"higher\" or \"lower\"";
    }
    JsonNode warmup = node.get("warmup");
    if (warmup != null && !warmup.isBoolean()) {
      return "\"warmup\" must be true or false";
    }
    return null;
  }
}
