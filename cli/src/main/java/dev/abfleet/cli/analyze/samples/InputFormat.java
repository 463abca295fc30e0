package dev.abfleet.cli.analyze.samples;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The two sample formats {@code analyze} reads, and how it tells them apart when
 * {@code --input-format} is not given (docs/commands.md, {@code analyze}).
 */
public enum InputFormat {
  /** abfleet JSON Lines: one sample object per line. */
  JSONL("jsonl", "abfleet JSON Lines"),
  /** The output of {@code go test -bench}, the text benchstat reads. */
  GOBENCH("gobench", "Go benchmark output");

  /** A benchmark result line: name, iteration count, then at least one value and unit. */
  static final Pattern BENCHMARK_LINE = Pattern.compile("^Benchmark\\S+\\s+\\d+\\s+[\\d.]+\\s+\\S+");
  /**
   * A configuration line of Go benchmark text ({@code goos: linux}, {@code pkg: example.com/x}):
   * as benchfmt defines it, a key that starts lower-case and has no space or upper-case letter.
   */
  static final Pattern CONFIG_LINE = Pattern.compile("^[a-z][^\\sA-Z:]*:(\\s.*)?$");
  /** How much of a line an error message quotes. */
  private static final int QUOTE = 60;

  public final String flag;
  public final String label;

  InputFormat(String flag, String label) {
    this.flag = flag;
    this.label = label;
  }

  /** The format of {@code --input-format VALUE}; null for "auto" (detect per file). */
  public static InputFormat ofFlag(String value) {
    for (InputFormat f : values()) {
      if (f.flag.equals(value)) {
        return f;
      }
    }
    if (value.equals("auto")) {
      return null;
    }
    throw new IllegalArgumentException("--input-format '" + value + "': expected jsonl or gobench"
        + " (or auto, the default: detect each file's format)");
  }

  /**
   * What a file holds: its format, or (format null) why it is neither.
   *
   * @param line the line the problem is on; 0 = the file as a whole
   * @param problem the message after the file name (and line), with the fix; null when detected
   */
  public record Detected(InputFormat format, long line, String problem) {
    static Detected of(InputFormat format) {
      return new Detected(format, 0, null);
    }
  }

  /**
   * Reads {@code in} until it can tell: JSON Lines when the first non-blank line starts with
   * {@code {}; Go benchmark text at the first benchmark result line, or, without one, when the
   * first non-blank line is a configuration line ({@code goos: linux}), so that the Go reader
   * can say that no benchmark ran. Go test output may carry other lines (logs, {@code PASS},
   * {@code ok ...}) before its results, so those do not decide.
   */
  public static Detected detect(TextLines in) throws IOException {
    TextLines.Line first = null;
    boolean config = false;
    TextLines.Line l;
    while ((l = in.next()) != null) {
      String text = l.text();
      if (text != null && text.isBlank()) {
        continue;
      }
      if (first == null) {
        if (text == null) {
          // Neither reader could read it: say why as they would (not UTF-8, no line break).
          return new Detected(null, l.number(), l.problem());
        }
        first = l;
        if (text.stripLeading().startsWith("{")) {
          return Detected.of(JSONL);
        }
        config = CONFIG_LINE.matcher(text).matches();
      }
      if (text != null && BENCHMARK_LINE.matcher(text).find()) {
        return Detected.of(GOBENCH);
      }
    }
    if (config) {
      return Detected.of(GOBENCH);
    }
    String fix = "; pass --input-format jsonl or --input-format gobench to read it as one and see"
        + " the first line at fault";
    if (first == null) {
      return new Detected(null, 0, "empty (no samples); pass a file of JSON Lines samples or the"
          + " output of 'go test -bench'");
    }
    return new Detected(null, 0, "neither " + JSONL.label + " nor " + GOBENCH.label + ": first line ("
        + first.number() + ") '" + quote(first.text()) + "'" + fix);
  }

  /** The line cut to {@link #QUOTE} characters, control characters shown as '?'. */
  private static String quote(String text) {
    String s = text.strip();
    s = s.length() > QUOTE ? s.substring(0, QUOTE) + "..." : s;
    return s.replaceAll("\\p{Cntrl}", "?");
  }
}
