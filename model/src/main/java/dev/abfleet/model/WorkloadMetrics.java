package dev.abfleet.model;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The names and units a workload may report. A name travels through {@code --metrics a,b}, the
 * text report's columns, Markdown tables and history files, so it holds no space, comma, pipe or
 * quote: 1 to 128 of {@code A-Z a-z 0-9 _ . : / = + % -}, starting with a letter, digit or
 * {@code _}. A unit is 1 to 32 of the same characters.
 *
 * <p>Go benchmark output gives one metric per unit, named {@code NAME_UNIT}: the benchmark name
 * after {@code Benchmark} with its {@code -N} suffix, {@code _}, and the unit, e.g.
 * {@code BenchmarkStat-2 1000 2400 ns/op 410.5 MB/s} gives {@code Stat-2_ns/op} (lower is better)
 * and {@code Stat-2_MB/s} (higher is better).
 */
public final class WorkloadMetrics {

  public static final int MAX_NAME = 128;
  public static final int MAX_UNIT = 32;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:/=+%-]{0," + (MAX_NAME - 1) + "}");
  private static final Pattern UNIT = Pattern.compile("[A-Za-z0-9_.:/=+%-]{1," + MAX_UNIT + "}");

  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  private WorkloadMetrics() {}

  /** What is wrong with {@code name} as a workload metric name, with the rule; empty if valid. */
  public static Optional<String> nameProblem(String name) {
    if (name != null && NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    return Optional.of("metric name '" + excerpt(String.valueOf(name)) + "' is not valid: use 1 to "
        + MAX_NAME + " of letters, digits and _ . : / = + % - (starting with a letter, digit or _)");
  }

  /** What is wrong with {@code unit} as a workload metric unit, with the rule; empty if valid. */
  public static Optional<String> unitProblem(String unit) {
    if (unit != null && UNIT.matcher(unit).matches()) {
      return Optional.empty();
    }
    return Optional.of("unit '" + excerpt(String.valueOf(unit)) + "' is not valid: use 1 to "
        + MAX_UNIT + " of letters, digits and _ . : / = + % -");
  }

  /** The metric a Go benchmark's value in {@code unit} becomes, e.g. {@code Stat-2_ns/op}. */
  public static String goBenchName(String benchmark, String unit) {
    return benchmark + "_" + unit;
  }

  /** {@code s} safe to quote in a message: control characters as ?, at most 80 characters. */
  public static String excerpt(String s) {
    String printable = CONTROL.matcher(s).replaceAll("?");
    return printable.length() <= 80 ? printable : printable.substring(0, 77) + "...";
  }
}
