package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The report renders verdicts; it does not make them. Pairing boots, the tests and the decision
 * rule live in stats (stats.verdict's Assessor); report's sources may name only the values a
 * verdict produces and descriptive statistics of counters.
 */
class ReportRendersOnlyTest {
  /** What report may use of stats: results, their vocabulary, and descriptions of values. */
  private static final Set<String> ALLOWED = Set.of(
      "Comparison", "BootFailureComparison", "Verdict", "Direction", "Reasons", "Adjustment", "Policy",
      "SignInterval", "Medians",
      "verdict.Assessment", "verdict.Row", "verdict.BootSample", "verdict.BootValues", "verdict.VerdictBoot",
      "verdict.VerdictDesign");
  private static final Pattern STATS = Pattern.compile("dev\\.abfleet\\.stats\\.((?:verdict\\.)?[A-Z]\\w*)");

  @Test
  void reportNamesOnlyVerdictResultsAndDescriptiveStatistics() throws IOException {
    List<String> used = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = STATS.matcher(Files.readString(f));
        while (m.find()) {
          used.add(m.group(1) + " in " + f.getFileName());
        }
      }
    }
    assertThat(used).isNotEmpty();
    assertThat(used).allSatisfy(u -> assertThat(ALLOWED).as(u).contains(u.substring(0, u.indexOf(' '))));
  }

  @Test
  void theDecisionLivesInStats() throws Exception {
    for (String moved : List.of("Assessor", "Overall")) {
      assertThat(Files.exists(Path.of("src/main/java/dev/abfleet/report/" + moved + ".java"))).as(moved).isFalse();
    }
    Class.forName("dev.abfleet.stats.verdict.Assessor");
  }
}
