package dev.abfleet.worker.guest;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of Go benchmark text ({@code BenchmarkName-8  1000  1234 ns/op  56 B/op ...}), the
 * one parser behind {@code abfleet analyze --input-format gobench} and workloads with
 * {@code output: gobench}. Pure and total: any string yields a {@link Line}.
 *
 * <p>The name is the text after {@code Benchmark}, its {@code -N} (GOMAXPROCS) suffix kept. Each
 * {@code value unit} pair is one measurement; a unit ending in {@code /s} is better higher, every
 * other unit lower. Lines that do not start with {@code Benchmark} ({@code goos:}, {@code PASS},
 * {@code ok ...}) are not results.
 */
public final class GoBenchLine {

  private static final String PREFIX = "Benchmark";
  private static final String FORM = "expected 'BenchmarkName N value unit [value unit ...]'";

  /** One measurement of a line. */
  public record Measurement(double value, String unit, Better better) {}

  /**
   * A parsed line.
   *
   * @param benchmark true when the line is a benchmark result line (starts with {@code Benchmark});
   *     false for any other line, which has no name, measurements or error
   * @param name the name after {@code Benchmark}, with its {@code -N} suffix
   * @param iterations the iteration count (second field)
   * @param measurements the value/unit pairs read, in order, up to the first bad one
   * @param error what is wrong with the line, or null; measurements read before it are kept
   */
  public record Line(boolean benchmark, String name, long iterations, List<Measurement> measurements, String error) {
    public Line {
      measurements = List.copyOf(measurements);
    }

    static Line notBenchmark() {
      return new Line(false, "", 0, List.of(), null);
    }

    static Line bad(String name, long iterations, List<Measurement> read, String error) {
      return new Line(true, name, iterations, read, error);
    }
  }

  private GoBenchLine() {}

  /** The direction of a Go benchmark unit: {@code .../s} is a rate (higher), anything else a cost (lower). */
  public static Better better(String unit) {
    return unit.endsWith("/s") ? Better.HIGHER : Better.LOWER;
  }

  public static Line parse(String text) {
    if (text == null || !text.startsWith(PREFIX)) {
      return Line.notBenchmark();
    }
    String[] f = text.trim().split("\\s+");
    if (f.length < 4 || f.length % 2 != 0) {
      return Line.bad("", 0, List.of(), f.length + " fields; " + FORM);
    }
    String name = f[0].substring(PREFIX.length());
    if (name.isEmpty()) {
      return Line.bad("", 0, List.of(), "benchmark without a name");
    }
    long iterations;
    try {
      iterations = Long.parseLong(f[1]);
    } catch (NumberFormatException e) {
      return Line.bad(name, 0, List.of(), "iteration count '" + f[1] + "' is not a whole number; " + FORM);
    }
    List<Measurement> read = new ArrayList<>();
    for (int i = 2; i + 1 < f.length; i += 2) {
      double value;
      try {
        value = Double.parseDouble(f[i]);
      } catch (NumberFormatException e) {
        return Line.bad(name, iterations, read, "value '" + f[i] + "' is not a number; " + FORM);
      }
      if (!Double.isFinite(value)) {
        return Line.bad(name, iterations, read, "value is " + f[i] + "; values must be finite"
            + " numbers (leave out a result that was not measured)");
      }
      read.add(new Measurement(value, f[i + 1], better(f[i + 1])));
    }
    return new Line(true, name, iterations, read, null);
  }
}
