package dev.abfleet.cli.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.abfleet.config.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A series read from a file for {@code abfleet history analyze}: one value per line, in order,
 * each with an optional date and label.
 *
 * <ul>
 *   <li>CSV ({@code .csv} or anything not ending in {@code .jsonl}/{@code .json}): a single
 *       column of numbers, or columns named by a header line that has {@code value} and may have
 *       {@code date} and {@code label}, in any order;
 *   <li>JSONL ({@code .jsonl}, {@code .json}): one object per line with {@code value} (a number)
 *       and optional {@code date} and {@code label} strings.
 * </ul>
 *
 * Blank lines and lines starting with {@code #} are skipped; an empty value (CSV) or
 * {@code null} (JSONL) is a gap, as a night that measured nothing. Anything else that is not a
 * number is an error naming its file and line.
 */
record SeriesFile(List<Point> points) {
  /** @param date empty = none given; @param label empty = none given; @param value NaN = a gap */
  record Point(String date, String label, double value) {}

  static SeriesFile read(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new Problem(file + ": not a regular file; give a CSV or JSONL series, one value per line");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Problem("cannot read " + file + ": " + e.getMessage());
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    List<Point> points = name.endsWith(".jsonl") || name.endsWith(".json") ? jsonl(file, lines) : csv(file, lines);
    if (points.isEmpty()) {
      throw new Problem(file + " has no values; expected one value per line (CSV, or JSONL objects with \"value\")");
    }
    return new SeriesFile(List.copyOf(points));
  }

  private static List<Point> csv(Path file, List<String> lines) {
    List<Point> out = new ArrayList<>();
    int valueAt = 0;
    int dateAt = -1;
    int labelAt = -1;
    boolean first = true;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      List<String> cells = Arrays.stream(line.split(",", -1)).map(String::strip).toList();
      if (first) {
        first = false;
        if (cells.contains("value")) {
          valueAt = cells.indexOf("value");
          dateAt = cells.indexOf("date");
          labelAt = cells.indexOf("label");
          continue;
        }
        if (cells.size() > 1) {
          throw new Problem(file + ":" + (i + 1) + ": " + cells.size() + " columns and no header; start the"
              + " file with a header naming them, e.g. date,value,label");
        }
      }
      if (valueAt >= cells.size()) {
        throw new Problem(file + ":" + (i + 1) + ": no value column; expected " + (valueAt + 1) + " or more columns");
      }
      out.add(new Point(dateAt >= 0 && dateAt < cells.size() ? cells.get(dateAt) : "",
          labelAt >= 0 && labelAt < cells.size() ? cells.get(labelAt) : "",
          number(file, i + 1, cells.get(valueAt))));
    }
    return out;
  }

  private static List<Point> jsonl(Path file, List<String> lines) {
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      JsonNode n;
      try {
        n = HistoryFile.JSON.readTree(line);
      } catch (IOException e) {
        throw new Problem(file + ":" + (i + 1) + ": not JSON; expected one object per line, e.g."
            + " {\"date\": \"2026-03-10\", \"value\": 812.5}");
      }
      if (n == null || !n.isObject() || !n.has("value")) {
        throw new Problem(file + ":" + (i + 1) + ": expected an object with \"value\", e.g. {\"value\": 812.5}");
      }
      JsonNode v = n.get("value");
      if (!v.isNull() && !v.isNumber()) {
        throw new Problem(file + ":" + (i + 1) + ": \"value\" is " + v + "; expected a number (null = a gap)");
      }
      out.add(new Point(n.path("date").asText(""), n.path("label").asText(""),
          v.isNull() ? Double.NaN : v.asDouble()));
    }
    return out;
  }

  private static double number(Path file, int line, String cell) {
    if (cell.isEmpty()) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(cell);
      if (Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new Problem(file + ":" + line + ": value '" + cell + "' is not a number (an empty cell = a gap)");
  }

  double[] values() {
    return points.stream().mapToDouble(Point::value).toArray();
  }
}
