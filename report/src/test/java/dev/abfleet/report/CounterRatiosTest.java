package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessor;

import dev.abfleet.model.CounterRatio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Reschedule IPIs per virtio-fs request interrupt, the motivating case's key ratio: about 1 on
 * the stock kernel, about 0.3 with a spin-wait. Thirteen pairs; in pair 11 the candidate's
 * device interrupts did not move, so that pair is left out and twelve remain.
 */
class CounterRatiosTest {
  static final long[] BASE_RES = {980, 1010, 1043, 995, 1102, 970, 1001, 1050, 990, 1020, 1075, 1008, 999};
  static final long[] BASE_Q0 = {600, 610, 590, 605, 640, 580, 600, 615, 598, 612, 630, 600, 601};
  static final long[] BASE_Q1 = {400, 395, 420, 401, 410, 399, 402, 405, 397, 404, 415, 402, 398};
  static final long[] CAND_RES = {310, 290, 335, 301, 280, 320, 305, 298, 330, 312, 287, 150, 300};
  static final long[] CAND_Q0 = {590, 605, 600, 598, 620, 585, 610, 600, 602, 606, 640, 0, 597};
  static final long[] CAND_Q1 = {405, 400, 410, 399, 402, 401, 398, 404, 400, 407, 420, 0, 401};

  static final CounterRatio RES_PER_REQ =
      new CounterRatio("res_per_virtio_req", "RES", "virtio*-request*");

  /** Rows as the harness names them: virtio-fs queues, its hiprio queue, the timer. */
  static Map<String, Long> rows(String resRow, long res, long q0, long q1) {
    Map<String, Long> rows = new LinkedHashMap<>();
    rows.put(resRow, res);
    if (q0 > 0) {
      rows.put("virtio2-requests.0", q0);
    }
    if (q1 > 0) {
      rows.put("virtio2-requests.1", q1);
    }
    rows.put("virtio2-hiprio", 7L);
    rows.put("LOC", 250L);
    return rows;
  }

  static BootRecord boot(String arm, int pair, Map<String, Long> rows, long ctxt) {
    MetricCounters c = new MetricCounters("metadata_stat", 20_000, "ops", rows, ctxt, -1);
    int order = arm.equals("stock") ? 0 : 1;
    RunFacts facts = new RunFacts("qemu", "6.1.0", 1, order, 2500, 9000, 10, "", "", "virtiofs",
        "", List.of(), List.of(c));
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, order,
        false), BootRecord.OK, "qemu/tcg", "tcg", false, List.of(new BootSample("metadata_stat",
        order == 0 ? 31_800 : 50_300, "ops/s", "higher", false)), facts);
  }

  static Report report(List<CounterRatio> ratios, String resRow) {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < BASE_RES.length; p++) {
      boots.add(boot("stock", p, rows(resRow, BASE_RES[p], BASE_Q0[p], BASE_Q1[p]), 40_000));
      boots.add(boot("spin", p, rows(resRow, CAND_RES[p], CAND_Q0[p], CAND_Q1[p]), 21_000));
    }
    Design d = new Design("e1", "stock", List.of("spin"), "", List.of(), Set.of(),
        new Policy(0.02, 0.05), 1, null, ratios);
    return new Report(d, Assessor.assess(d.verdict(), boots),
        new Run("completed", 1, boots.size() / 2, boots.size() / 2, 0, 0, "", false, boots));
  }

  @Test
  void reportsThePairedMedianChangeWithTheSignTestIntervalOfScipy() {
    List<CounterRatios.Row> rows = CounterRatios.of(report(List.of(RES_PER_REQ), "RES"));

    assertThat(rows).hasSize(1);
    CounterRatios.Row r = rows.get(0);
    assertThat(r.name()).isEqualTo("res_per_virtio_req");
    assertThat(r.definition()).isEqualTo("RES / virtio*-request*");
    // Expected values: numpy medians and the order statistics k = 3 and n + 1 - k of the sorted
    // differences, k the largest with 2 * scipy.stats.binom.cdf(k - 1, 12, 0.5) <= 0.05.
    assertThat(r.pairs()).isEqualTo(12);
    assertThat(r.baseline()).isCloseTo(1.001968503937, within(1e-9));
    assertThat(r.candidate()).isCloseTo(0.302242541115, within(1e-9));
    assertThat(r.change()).isCloseTo(-0.697910714262, within(1e-9));
    assertThat(r.low()).isCloseTo(-0.732599015702, within(1e-9));
    assertThat(r.high()).isCloseTo(-0.668442211055, within(1e-9));
  }

  @Test
  void leavesOutPairsWhoseDenominatorDidNotMove() {
    Report r = report(List.of(new CounterRatio("res_per_hiprio", "RES", "virtio2-hiprio"),
        new CounterRatio("res_per_blk", "RES", "virtio0-req*")), "RES");

    List<CounterRatios.Row> rows = CounterRatios.of(r);

    assertThat(rows).extracting(CounterRatios.Row::name).containsExactly("res_per_hiprio");
    assertThat(rows.get(0).pairs()).isEqualTo(13);
  }

  @Test
  void showsReschedulesPerDeviceRequestWhenNoneAreDeclared() {
    CounterRatios.Row r = CounterRatios.of(report(List.of(), "RES")).get(0);

    assertThat(r.name()).isEqualTo(CounterRatio.DEFAULT_NAME);
    assertThat(r.num()).isEqualTo("RES");
    assertThat(r.den()).isEqualTo("virtio*-request*");
    assertThat(r.change()).isCloseTo(-0.697910714262, within(1e-9));
  }

  @Test
  void theDefaultCountsIpi0OnArm64() {
    List<CounterRatios.Row> rows = CounterRatios.of(report(List.of(), "IPI0"));

    assertThat(rows).extracting(CounterRatios.Row::num).containsExactly("IPI0");
  }

  @Test
  void declaredRatiosReplaceTheDefault() {
    List<CounterRatios.Row> rows = CounterRatios.of(report(List.of(
        new CounterRatio("ctxt_per_req", "ctxt", "virtio*-request*")), "RES"));

    assertThat(rows).extracting(CounterRatios.Row::name).containsExactly("ctxt_per_req");
    // 40000 context switches over ~1000 requests per stock boot, 21000 per spin boot.
    assertThat(rows.get(0).baseline()).isCloseTo(40.0, within(1.0));
    assertThat(rows.get(0).candidate()).isCloseTo(21.0, within(0.5));
  }

  @Test
  void noDefaultWithoutDeviceRequestRows() {
    Report r = report(List.of(), "RES");
    List<BootRecord> noDevice = r.run().boots().stream().map(b -> boot(b.arm(), b.pair(),
        Map.of("RES", 900L, "LOC", 250L), 40_000)).toList();
    Report without = new Report(r.design(), r.assessment(),
        new Run("completed", 1, 13, 13, 0, 0, "", false, noDevice));

    assertThat(CounterRatios.of(without)).isEmpty();
    assertThat(TextReport.render(without)).doesNotContain("counter ratios");
  }

  @Test
  void textReportsTheRatioUnderTheCounters() {
    String text = TextReport.render(report(List.of(RES_PER_REQ), "RES"));

    assertThat(text).contains("counter ratios per boot (never gating)");
    assertThat(text).contains("  metadata_stat res_per_virtio_req (RES / virtio*-request*): 1.00 ->"
        + " 0.302 (-0.698 [-0.733, -0.668], 12 pairs)\n");
    assertThat(text.indexOf("guest counters")).isLessThan(text.indexOf("counter ratios"));
  }

  @Test
  void markdownAndHtmlTabulateTheRatio() {
    Report r = report(List.of(RES_PER_REQ), "RES");

    assertThat(MarkdownReport.render(r)).contains("| metadata_stat | res_per_virtio_req |"
        + " `RES / virtio*-request*` | 1.00 | 0.302 | -0.698 | [-0.733, -0.668] | 12 |");
    assertThat(HtmlReport.render(r)).contains("<td>res_per_virtio_req</td><td>RES /"
        + " virtio*-request*</td><td>1.00</td><td>0.302</td>");
  }

  @Test
  void jsonCarriesEachRatioWithItsInterval() throws Exception {
    JsonNode ratio = new ObjectMapper().readTree(JsonReport.render(report(List.of(RES_PER_REQ),
        "RES"))).at("/ratios/0");

    assertThat(ratio.get("arm").asText()).isEqualTo("spin");
    assertThat(ratio.get("metric").asText()).isEqualTo("metadata_stat");
    assertThat(ratio.get("name").asText()).isEqualTo("res_per_virtio_req");
    assertThat(ratio.get("num").asText()).isEqualTo("RES");
    assertThat(ratio.get("den").asText()).isEqualTo("virtio*-request*");
    assertThat(ratio.get("pairs").asInt()).isEqualTo(12);
    assertThat(ratio.get("baseline").asDouble()).isCloseTo(1.001968503937, within(1e-9));
    assertThat(ratio.get("candidate").asDouble()).isCloseTo(0.302242541115, within(1e-9));
    assertThat(ratio.get("change").asDouble()).isCloseTo(-0.697910714262, within(1e-9));
    assertThat(ratio.get("ci_low").asDouble()).isCloseTo(-0.732599015702, within(1e-9));
    assertThat(ratio.get("ci_high").asDouble()).isCloseTo(-0.668442211055, within(1e-9));
  }

  @Test
  void reportsWithoutFleetFactsHaveNoRatios() {
    Report r = report(List.of(RES_PER_REQ), "RES");

    assertThat(CounterRatios.of(new Report(r.design(), r.assessment(), null))).isEmpty();
  }
}
