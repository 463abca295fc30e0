package dev.abfleet.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the boots of one arm printed on their consoles that matched the console patterns (WARNING:,
 * BUG:, Oops, ...). A kernel that warns is news even when it is fast: this is reported beside the
 * verdict and never changes it.
 *
 * @param arm the arm's name
 * @param boots boots of the arm with fleet facts (warm-up boots included: they booted the kernel too)
 * @param bootsWithFindings boots with at least one matching console line
 * @param lines matching console lines over all its boots
 * @param first the first matching line of the first boot that had one; empty when none
 */
public record ConsoleSummary(String arm, int boots, int bootsWithFindings, int lines, String first) {

  /** Longest quote of {@link #first} in a report line. */
  static final int QUOTE_CHARS = 160;

  /**
   * One summary per arm with boots, the baseline first, then as compared, then any other arm;
   * empty for reports without fleet facts ({@code abfleet analyze}).
   */
  public static List<ConsoleSummary> of(Report r) {
    if (r.run() == null) {
      return List.of();
    }
    Map<String, int[]> counts = new LinkedHashMap<>();
    Map<String, String> firsts = new LinkedHashMap<>();
    counts.put(r.design().baseline(), new int[3]);
    r.design().compared().forEach(arm -> counts.put(arm, new int[3]));
    for (BootRecord b : r.run().boots()) {
      int[] c = counts.computeIfAbsent(b.arm(), k -> new int[3]);
      c[0]++;
      RunFacts f = b.run();
      if (f != null && f.consoleFindings() > 0) {
        c[1]++;
        c[2] += f.consoleFindings();
        if (!f.consoleLines().isEmpty()) {
          firsts.putIfAbsent(b.arm(), f.consoleLines().get(0));
        }
      }
    }
    List<ConsoleSummary> out = new ArrayList<>();
    counts.forEach((arm, c) -> {
      if (c[0] > 0) {
        out.add(new ConsoleSummary(arm, c[0], c[1], c[2], firsts.getOrDefault(arm, "")));
      }
    });
    return out;
  }

  /** The report lines of the arms with findings, e.g. "console: arm b: 3 of 8 boots printed ...". */
  public static List<String> lines(Report r) {
    return of(r).stream().filter(s -> s.bootsWithFindings() > 0).map(ConsoleSummary::line).toList();
  }

  /** "console: arm b: 3 of 8 boots printed WARNING/BUG/Oops lines (7 lines); first: [ 1.9] WARNING: ..." */
  public String line() {
    String quote = first.strip();
    if (quote.length() > QUOTE_CHARS) {
      quote = quote.substring(0, QUOTE_CHARS) + "...";
    }
    return "console: arm " + arm + ": " + bootsWithFindings + " of " + boots + " boots printed WARNING/BUG/Oops lines ("
        + lines + (lines == 1 ? " line" : " lines") + ")" + (quote.isEmpty() ? "" : "; first: " + quote);
  }
}
