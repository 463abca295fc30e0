package dev.abfleet.cli.analyze;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Go benchmark text ({@code BenchmarkName-8  1000  1234 ns/op  56 B/op ...}). One file
 * per arm (arm = file name without extension), unpaired; each result line is one boot; metric
 * = the benchmark name without the {@code Benchmark} prefix, keeping the {@code -N} suffix,
 * one metric per unit. Units ending in "/s" are better higher, all others lower. Lines that
 * do not start with "Benchmark" (goos:, pkg:, PASS, ok ...) are skipped.
 */
final class GoBenchReader {
  private GoBenchReader() {}

  static Parsed read(String file, String arm, TextLines in, long orderBase)
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
      if (!text.startsWith("Benchmark")) {
        continue;
      }
      String[] f = text.trim().split("\\s+");
      if (f.length < 4 || f.length % 2 != 0) {
        errors.add(new ParseError(file, line,
            "expected 'BenchmarkName N value unit [value unit ...]'"));
        continue;
      }
      String name = f[0].substring("Benchmark".length());
      if (name.isEmpty()) {
        errors.add(new ParseError(file, line, "benchmark without a name"));
        continue;
      }
      try {
        Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        errors.add(new ParseError(file, line, "iteration count '" + f[1]
            + "' is not a whole number"));
        continue;
      }
      String boot = file + ":" + line;
      for (int i = 2; i + 1 < f.length; i += 2) {
        double value;
        try {
          value = Double.parseDouble(f[i]);
        } catch (NumberFormatException e) {
          errors.add(new ParseError(file, line, "value '" + f[i] + "' is not a number"));
          break;
        }
        if (!Double.isFinite(value)) {
          errors.add(new ParseError(file, line, "value is " + f[i] + "; values must be finite"
              + " numbers (leave out a result that was not measured)"));
          break;
        }
        String unit = f[i + 1];
        String better = unit.endsWith("/s") ? "higher" : "lower";
        samples.add(new Sample(JsonlReader.DEFAULT_EXPERIMENT, arm, null, null, boot, name,
            value, unit, better, false, false, orderBase + line, file + ":" + line));
      }
    }
    return new Parsed(samples, errors);
  }
}
