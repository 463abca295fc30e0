package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.verdict.Assessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A candidate whose kernel panics in 4 of 8 boots, and is 20% faster when it does boot: the
 * experiment is regressed (boot_failures) in every format, with both failure rates shown.
 * Fisher one-sided p for [[0, 8], [4, 4]]: scipy 0.038461538461538464.
 */
class BootFailureVerdictTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Report report(int candidateFailures) {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      double wobble = 1 + 0.003 * (p % 4);
      boots.add(boot("stock", p, 0, 1000 * wobble, false));
      boots.add(boot("panicky", p, 1, 1200 * wobble, p % 2 == 1 && p / 2 < candidateFailures));
    }
    Design d = new Design("e-panic", "stock", List.of("panicky"), "", List.of(), Set.of(),
        new Policy(0.02, 0.05), 7, null);
    return new Report(d, Assessor.assess(d.verdict(), boots),
        new Run("completed", 7, 8, 8, 0, 0, "", false, boots));
  }

  private static BootRecord boot(String arm, int pair, int order, double value, boolean failed) {
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, order,
        false), failed ? "boot_failed" : BootRecord.OK, "qemu/tcg", "tcg", false,
        failed ? List.of() : List.of(new BootSample("metadata_stat", value, "ops/s", "higher",
            false)), null);
  }

  @Test
  void fourFailedBootsOfEightMakeTheExperimentRegressedWhateverItsMetricsSay() {
    Assessment a = report(4).assessment();

    assertThat(a.rows()).singleElement()
        .satisfies(r -> assertThat(r.comparison().verdict()).isNotEqualTo(Verdict.REGRESSED));
    assertThat(a.bootFailures().get("panicky").verdict()).isEqualTo(Verdict.REGRESSED);
    assertThat(a.bootFailures().get("panicky").pValue())
        .isCloseTo(0.038461538461538464, within(1e-12));
    assertThat(a.overall()).isEqualTo("regressed");
    assertThat(a.overallReasons()).containsExactly("boot_failures");
    assertThat(a.regressed()).isTrue();
  }

  @Test
  void textSaysRegressedBootFailuresWithBothRates() {
    String text = TextReport.render(report(4));

    assertThat(text).contains("verdict: regressed (boot_failures) (every gating metric");
    assertThat(text).contains("boot failures: stock 0 of 8 boots failed (0%), panicky 4 of 8"
        + " (50%), Fisher one-sided p=0.038: regressed\n");
  }

  @Test
  void markdownSaysRegressedBootFailuresWithBothRates() {
    String md = MarkdownReport.render(report(4));

    assertThat(md).startsWith("### abfleet: `stock` vs `panicky` — **regressed (boot_failures)**");
    assertThat(md).contains("verdict: regressed (boot_failures) (");
    assertThat(md).contains("Boot failures: stock 0 of 8 boots failed (0%), panicky 4 of 8"
        + " (50%), Fisher one-sided p=0.038: **regressed**\n");
  }

  @Test
  void jsonSaysRegressedBootFailuresWithBothRates() throws Exception {
    JsonNode n = JSON.readTree(JsonReport.render(report(4)));

    assertThat(n.get("overall").asText()).isEqualTo("regressed");
    assertThat(n.get("overall_reasons")).hasSize(1);
    assertThat(n.get("overall_reasons").get(0).asText()).isEqualTo("boot_failures");
    JsonNode f = n.get("boot_failures").get(0);
    assertThat(f.get("arm").asText()).isEqualTo("panicky");
    assertThat(f.get("baseline_failed").asInt()).isZero();
    assertThat(f.get("baseline_boots").asInt()).isEqualTo(8);
    assertThat(f.get("candidate_failed").asInt()).isEqualTo(4);
    assertThat(f.get("candidate_boots").asInt()).isEqualTo(8);
    assertThat(f.get("baseline_rate").asDouble()).isZero();
    assertThat(f.get("candidate_rate").asDouble()).isEqualTo(0.5);
    assertThat(f.get("p_value").asDouble()).isCloseTo(0.038461538461538464, within(1e-12));
    assertThat(f.get("test").asText()).isEqualTo("fisher_one_sided");
    assertThat(f.get("verdict").asText()).isEqualTo("regressed");
  }

  @Test
  void oneFailedBootIsShownButDoesNotDecide() {
    Report r = report(1);

    assertThat(r.assessment().overallReasons()).isEmpty();
    assertThat(r.assessment().overall()).isNotEqualTo("regressed");
    assertThat(TextReport.render(r)).contains("panicky 1 of 8 (13%)").contains(": inconclusive\n");
  }
}
