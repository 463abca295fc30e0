package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Assessor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Eight pairs; three boots of the candidate "b" printed a WARN_ON (two lines each), the baseline none. */
class ConsoleSummaryTest {
  private static final String WARN = "[    1.912400] WARNING: CPU: 0 PID: 1 at init/main.c:1530 abfleet_warn_init+0x11/0x20";

  private static BootRecord boot(String arm, int pair, boolean warns) {
    RunFacts facts = new RunFacts("qemu", "6.1.76", 1, arm.equals("a") ? 0 : 1, 2500, 9000, 10, "", "", "", "",
        List.of(), List.of(), "x86_64", "", warns ? 2 : 0, warns ? List.of(WARN, "[    1.9128] Call Trace:") : List.of());
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, arm.equals("a") ? 0 : 1, false),
        BootRecord.OK, "qemu/tcg", "tcg", false,
        List.of(new BootSample("metadata_stat", arm.equals("a") ? 31800 + pair : 50300 + pair, "ops/s", "higher", false)),
        facts);
  }

  private static Report report(int warningBoots) {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      boots.add(boot("a", p, false));
      boots.add(boot("b", p, p >= 8 - warningBoots));
    }
    Design d = new Design("e1", "a", List.of("b"), "", List.of(), Set.of(), new Policy(0.02, 0.05), 1, null);
    return new Report(d, Assessor.assess(d.verdict(), boots), new Run("completed", 1, 8, 8, 0, 0, "", false, boots));
  }

  @Test
  void countsBootsWithFindingsAndLinesPerArm() {
    assertThat(ConsoleSummary.of(report(3))).containsExactly(
        new ConsoleSummary("a", 8, 0, 0, ""),
        new ConsoleSummary("b", 8, 3, 6, WARN));
  }

  @Test
  void textMarkdownAndHtmlSayWhichArmWarnedAndQuoteTheFirstLine() {
    String line = "console: arm b: 3 of 8 boots printed WARNING/BUG/Oops lines (6 lines); first: " + WARN;
    assertThat(TextReport.render(report(3))).contains(line + "\n");
    assertThat(MarkdownReport.render(report(3))).contains(line);
    assertThat(HtmlReport.render(report(3))).contains("<p class=\"console\">console: arm b: 3 of 8 boots");
  }

  @Test
  void findingsNeverChangeTheVerdict() {
    assertThat(report(3).assessment().overall()).isEqualTo(report(0).assessment().overall());
    assertThat(report(3).assessment().overall()).isEqualTo("improved");
  }

  @Test
  void cleanBootsGiveNoConsoleLine() {
    assertThat(TextReport.render(report(0))).doesNotContain("console:");
    assertThat(ConsoleSummary.lines(report(0))).isEmpty();
  }

  @Test
  void jsonCarriesFindingsPerArmAndPerBoot() throws Exception {
    JsonNode e = new ObjectMapper().readTree(JsonReport.render(report(3)));
    assertThat(e.at("/console_findings/b/boots").asInt()).isEqualTo(3);
    assertThat(e.at("/console_findings/b/lines").asInt()).isEqualTo(6);
    assertThat(e.at("/console_findings/a/boots").asInt()).isZero();
    JsonNode warned = e.get("boots").get(15);
    assertThat(warned.at("/console/findings").asInt()).isEqualTo(2);
    assertThat(warned.at("/console/lines/0").asText()).isEqualTo(WARN);
    assertThat(e.get("boots").get(0).has("console")).isFalse();
  }
}
