package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The FUSE spin-wait case in counters: the candidate all but stops sending reschedule IPIs per
 * stat (0.98 -> 0.02), the virtio request interrupts per op stay, context switches halve.
 */
class TelemetryChangesTest {
  static BootRecord boot(String arm, int pair, double res, double virtio, long ctxt) {
    double work = 10_000 + 37 * pair;
    MetricCounters c = new MetricCounters("metadata_stat", work, "ops",
        Map.of("RES", Math.round(res * work), "virtio1-requests", Math.round(virtio * work),
            "LOC", 40L), ctxt, -1);
    RunFacts facts = new RunFacts("qemu", "6.1.0-50-amd64", 1, arm.equals("base") ? 0 : 1, 2500,
        9000, 10, "", "", "9p", "trans=virtio,version=9p2000.L,msize=524288", List.of(),
        List.of(c));
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair,
        arm.equals("base") ? 0 : 1, false), BootRecord.OK, "qemu/tcg", "tcg", false,
        List.of(new BootSample("metadata_stat", arm.equals("base") ? 31800 : 50300, "ops/s",
            "higher", false)), facts);
  }

  static Report report() {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      double wobble = 1 + 0.01 * (p % 3);
      boots.add(boot("base", p, 0.98 * wobble, 1.0 * wobble, 20_000));
      boots.add(boot("spin", p, 0.02 * wobble, 1.0 * wobble, 10_000));
    }
    Design d = new Design("e1", "base", List.of("spin"), "", List.of(), Set.of(),
        new Policy(0.02, 0.05), 1, null);
    return new Report(d, Assessor.assess(d.verdict(), boots),
        new Run("completed", 1, 8, 8, 0, 0, "", false, boots));
  }

  @Test
  void theRowWhoseRatePerOpMovedMostComesFirstWithAnIntervalExcludingZero() {
    List<TelemetryChanges.Row> rows = TelemetryChanges.of(report());

    assertThat(rows).hasSize(TelemetryChanges.ROWS_PER_METRIC);
    TelemetryChanges.Row res = rows.get(0);
    assertThat(res.row()).isEqualTo("RES");
    assertThat(res.label()).isEqualTo("RES per op");
    assertThat(res.pairs()).isEqualTo(8);
    assertThat(res.baselineRate()).isCloseTo(0.99, within(0.01));
    assertThat(res.candidateRate()).isCloseTo(0.02, within(0.005));
    assertThat(res.change()).isCloseTo(-0.97, within(0.02));
    assertThat(res.high()).isNegative();
    assertThat(rows.get(1).row()).isEqualTo("ctxt");
    assertThat(rows.get(1).change()).isCloseTo(-1.0, within(0.05));
  }

  @Test
  void reschedulesPerOpAreShownBesideTheTopRowsEvenWhenTheyDidNotMove() {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      for (String arm : List.of("base", "spin")) {
        long f = arm.equals("base") ? 2 : 1;
        Map<String, Long> rows = Map.of("RES", 5_000L, "CAL", 3_000 * f, "TLB", 2_000 * f,
            "virtio1-requests", 10_000 * f);
        BootRecord b = boot(arm, p, 0, 0, 0);
        MetricCounters c = new MetricCounters("metadata_stat", 10_000, "ops", rows, -1, -1);
        RunFacts f0 = b.run();
        boots.add(new BootRecord(b.id(), arm, b.host(), p, b.order(), b.status(), b.hostClass(),
            b.accelerator(), false, b.samples(), new RunFacts(f0.hypervisor(),
                f0.kernelRelease(), 1, f0.orderInPair(), 0, 0, 0, "", "", "", "", List.of(),
                List.of(c))));
      }
    }
    Report r = report();
    Report flat = new Report(r.design(), r.assessment(), new Run("completed", 1, 8, 8, 0, 0, "",
        false, boots));

    List<TelemetryChanges.Row> rows = TelemetryChanges.of(flat);

    assertThat(rows).extracting(TelemetryChanges.Row::row)
        .containsExactly("virtio1-requests", "CAL", "TLB", "RES");
    assertThat(rows.get(3).change()).isZero();
    assertThat(rows.get(3).baselineRate()).isEqualTo(0.5);
  }

  @Test
  void aCounterThatDidNotMoveIsNotAmongTheTopRowsWhenOthersDid() {
    assertThat(TelemetryChanges.of(report())).extracting(TelemetryChanges.Row::row)
        .doesNotContain("virtio1-requests");
  }

  @Test
  void textAndMarkdownShowTheSectionUnderTheVerdicts() {
    String text = TextReport.render(report());
    assertThat(text).contains("guest counters per unit of work (never gating)");
    assertThat(text.indexOf("verdict:")).isLessThan(text.indexOf("guest counters"));
    assertThat(text).containsPattern("metadata_stat\\s+RES per op\\s+0\\.99\\d\\s+0\\.0\\d+\\s+-0\\.9\\d+");
    assertThat(MarkdownReport.render(report())).contains("| metadata_stat | RES per op |");
  }

  @Test
  void jsonCarriesEachBootsCountersVolumeAndTheChanges() throws Exception {
    JsonNode e = new ObjectMapper().readTree(JsonReport.render(report()));
    JsonNode boot = e.get("boots").get(0);
    assertThat(boot.at("/volume/transport").asText()).isEqualTo("9p");
    assertThat(boot.at("/telemetry/metadata_stat/interrupts/RES").asLong()).isEqualTo(9800);
    assertThat(boot.at("/telemetry/metadata_stat/context_switches").asLong()).isEqualTo(20_000);
    assertThat(boot.at("/telemetry/metadata_stat/work_unit").asText()).isEqualTo("ops");
    assertThat(e.at("/telemetry_changes/0/counter").asText()).isEqualTo("RES");
    assertThat(e.at("/telemetry_changes/0/ci_high").asDouble()).isNegative();
  }

  @Test
  void bootsWithoutCountersGiveNoSection() {
    Report r = report();
    List<BootRecord> bare = r.run().boots().stream().map(b -> new BootRecord(b.id(), b.arm(),
        b.host(), b.pair(), b.order(), b.status(), b.hostClass(), b.accelerator(), false,
        b.samples(), new RunFacts("qemu", "", 1, 0, 0, 0, 0, "", ""))).toList();
    Report without = new Report(r.design(), r.assessment(), new Run("completed", 1, 8, 8, 0, 0,
        "", false, bare));
    assertThat(TelemetryChanges.of(without)).isEmpty();
    assertThat(TextReport.render(without)).doesNotContain("guest counters");
  }
}
