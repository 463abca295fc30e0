package dev.abfleet.cli.analyze.samples;

import dev.abfleet.worker.guest.GoBenchLine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Go benchmark text ({@code BenchmarkName-8  1000  1234 ns/op  56 B/op ...}). One file
 * per arm (arm = file name without extension), unpaired; each result line is one boot; metric
 * = the benchmark name without the {@code Benchmark} prefix, keeping the {@code -N} suffix,
 * one metric per unit. Units ending in "/s" are better higher, all others lower. Lines that
 * do not start with "Benchmark" (goos:, pkg:, PASS, ok ...) are skipped. Lines are read by
 * {@link GoBenchLine}, as a workload's Go benchmark output is; a line's values before a bad one
 * are kept.
 */
public final class GoBenchReader {
  private GoBenchReader() {}

  public static Parsed read(String file, String arm, TextLines in, long orderBase)
      throws IOException {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    TextLines.Line l;
    while (errors.size() < JsonlReader.MAX_BAD_LINES && (l = in.next()) != null) {
      long line = l.number();
      String text = l.text();
      if (text == null) {
        errors.add(new ParseError(file, line, l.problem()));
        continue;
      }
      GoBenchLine.Line parsed = GoBenchLine.parse(text);
      if (!parsed.benchmark()) {
        continue;
      }
      String boot = file + ":" + line;
      for (GoBenchLine.Measurement m : parsed.measurements()) {
        samples.add(new Sample(JsonlReader.DEFAULT_EXPERIMENT, arm, null, null, boot, parsed.name(),
            m.value(), m.unit(), m.better().wire(), false, false, orderBase + line, file + ":" + line));
      }
      if (parsed.error() != null) {
        errors.add(new ParseError(file, line, parsed.error()));
      }
    }
    return new Parsed(samples, errors);
  }

  /**
   * The file's configuration lines ({@code goos: linux}, {@code cpu: ...}) as key -> value, in
   * order; a key given again keeps its first value (benchstat's header shows one).
   */
  public static Map<String, String> config(TextLines in) throws IOException {
    Map<String, String> config = new LinkedHashMap<>();
    TextLines.Line l;
    while ((l = in.next()) != null) {
      String text = l.text();
      if (text != null && InputFormat.CONFIG_LINE.matcher(text).matches()) {
        int colon = text.indexOf(':');
        config.putIfAbsent(text.substring(0, colon), text.substring(colon + 1).strip());
      }
    }
    return config;
  }
}
