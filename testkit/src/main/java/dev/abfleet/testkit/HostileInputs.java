package dev.abfleet.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Shared pieces of the bad-input ("hostile") suites: what a user may never see, and the list of
 * cases each module writes to {@code target/hostile-inputs.txt} so that CI shows what is covered.
 */
public final class HostileInputs {
  /** Signs of a Java stack trace or exception reaching a user. */
  private static final Pattern LEAK = Pattern.compile("at dev\\.abfleet|Exception|java\\.lang|\\tat ");

  private HostileInputs() {}

  /** True when {@code text} shows a stack trace or an exception class name. */
  public static boolean leaksInternals(String text) {
    return LEAK.matcher(text).find();
  }

  /** {@code n} random-looking bytes, the same on every run (the suite has no randomness). */
  public static byte[] garbage(int n) {
    byte[] b = new byte[n];
    long x = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      b[i] = (byte) x;
    }
    return b;
  }

  /**
   * Writes one line per case ({@code category<TAB>case name}) to {@code target/hostile-inputs.txt}
   * of the module under test and prints one summary line per category.
   *
   * @param casesByCategory category name -> display names of its cases, in table order
   * @return the summary lines printed
   */
  public static List<String> writeList(Map<String, List<String>> casesByCategory) {
    List<String> lines = new ArrayList<>();
    List<String> summary = new ArrayList<>();
    int total = 0;
    for (var e : casesByCategory.entrySet()) {
      e.getValue().forEach(name -> lines.add(e.getKey() + "\t" + name.replace('\n', ' ')));
      summary.add("hostile inputs: " + e.getKey() + ": " + e.getValue().size() + " cases");
      total += e.getValue().size();
    }
    summary.add("hostile inputs: " + total + " cases in all, listed in target/hostile-inputs.txt");
    try {
      Path target = Files.createDirectories(Path.of("target"));
      Files.write(target.resolve("hostile-inputs.txt"), lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    summary.forEach(System.out::println);
    return summary;
  }
}
