package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Assessor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Per-CPU counters and per-thread rates of each boot in the JSON report. */
class JsonReportPerCpuTest {

  private static BootRecord boot(String arm, int pair, MetricCounters c) {
    RunFacts facts = new RunFacts("qemu", "6.1.0-50-amd64", 1, arm.equals("base") ? 0 : 1, 2500, 9000, 10, "", "",
        "", "", List.of(), List.of(c));
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, arm.equals("base") ? 0 : 1,
        false), BootRecord.OK, "qemu/tcg", "tcg", false,
        List.of(new BootSample("metadata_stat", arm.equals("base") ? 31800 : 50300, "ops/s", "higher", false)), facts);
  }

  private static Report report(MetricCounters c) {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      boots.add(boot("base", p, c));
      boots.add(boot("spin", p, c));
    }
    Design d = new Design("e1", "base", List.of("spin"), "", List.of(), Set.of(), new Policy(0.02, 0.05), 1, null);
    return new Report(d, Assessor.assess(d.verdict(), boots), new Run("completed", 1, 2, 2, 0, 0, "", false, boots));
  }

  @Test
  void writesEachBootsPerCpuRowsWakeupsAndThreadRatesUnderItsMetric() throws Exception {
    MetricCounters c = new MetricCounters("metadata_stat", 20_000, "ops", Map.of("RES", 1203L), 2410, 5120,
        Map.of("RES", List.of(601L, 602L)), Map.of("SCHED", List.of(40L, 38L), "RCU", List.of(12L, 9L)),
        List.of(700L, 690L), List.of(25_100.5, 25_200.25));

    JsonNode m = new ObjectMapper().readTree(JsonReport.render(report(c))).at("/boots/0/telemetry/metadata_stat");

    assertThat(m.get("interrupts").toString()).isEqualTo("{\"RES\":1203}");
    assertThat(m.get("interrupts_per_cpu").toString()).isEqualTo("{\"RES\":[601,602]}");
    assertThat(m.get("softirqs_per_cpu").toString()).isEqualTo("{\"RCU\":[12,9],\"SCHED\":[40,38]}");
    assertThat(m.get("wakeups_per_cpu").toString()).isEqualTo("[700,690]");
    assertThat(m.get("thread_rates").toString()).isEqualTo("[25100.5,25200.25]");
  }

  @Test
  void leavesOutPerCpuKeysOfABootThatReportedNone() throws Exception {
    MetricCounters c = new MetricCounters("metadata_stat", 20_000, "ops", Map.of("RES", 1203L), 2410, 5120);

    JsonNode m = new ObjectMapper().readTree(JsonReport.render(report(c))).at("/boots/0/telemetry/metadata_stat");

    assertThat(m.has("interrupts")).isTrue();
    for (String key : List.of("interrupts_per_cpu", "softirqs_per_cpu", "wakeups_per_cpu", "thread_rates")) {
      assertThat(m.has(key)).as(key).isFalse();
    }
  }
}
