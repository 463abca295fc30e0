package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Policy;
import dev.abfleet.stats.verdict.Assessor;
import dev.abfleet.stats.verdict.BootSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A cancelled experiment: pairs 0 to 29 complete, and in pairs 30 to 33 only the baseline
 * booted before the cancel. The per-boot and the paired chart sit one above the other and must
 * put each pair at the same place.
 */
class BootChartsRangeTest {
  static Report cancelled() {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 34; p++) {
      double wobble = 1 + 0.004 * (p % 5);
      boots.add(boot("stock", p, 0, 1000 * wobble));
      if (p < 30) {
        boots.add(boot("patched", p, 1, 1050 * wobble));
      }
    }
    Design d = new Design("e-cancel", "stock", List.of("patched"), "", List.of(), Set.of(),
        new Policy(0.02, 0.05), 7, null);
    return new Report(d, Assessor.assess(d.verdict(), boots),
        new Run("cancelled", 7, 30, 40, 0, 0, "cancelled by operator", false, boots));
  }

  private static BootRecord boot(String arm, int pair, int order, double value) {
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, order, false),
        BootRecord.OK, "qemu/tcg", "tcg", false,
        List.of(new BootSample("metadata_stat", value, "ops/s", "higher", false)), null);
  }

  /** The x axis' tick labels of a chart, left to right. */
  private static List<String> xTicks(String svg) {
    return Pattern.compile("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" text-anchor=\"middle\">(\\d+)</text>")
        .matcher(svg).results().map(m -> m.group(1) + "@" + m.group(2)).toList();
  }

  @Test
  void incompleteLastPairsWidenThePairedChartToThePerBootChartsRange() {
    Report r = cancelled();

    assertThat(BootCharts.pairRange(r, "metadata_stat", "ops/s", null))
        .isEqualTo(new BootCharts.PairRange(0, 33));
    assertThat(BootCharts.changes(r, "patched", "metadata_stat", "ops/s", null)).hasSize(30);
  }

  @Test
  void bothChartsOfACancelledExperimentPlaceEveryPairAlike() {
    Report r = cancelled();
    String boots = BootCharts.bootsChart(r, List.of("stock", "patched"), "metadata_stat", "ops/s", null, "b");
    String changes = BootCharts.changesChart(r, "patched", r.assessment().rows().get(0), "metadata_stat",
        "ops/s", null, "c");

    assertThat(xTicks(boots)).isNotEmpty().last().asString().endsWith("@33");
    assertThat(xTicks(changes)).isEqualTo(xTicks(boots));
  }
}
