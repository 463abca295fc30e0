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

/** Each boot's start and end wall times in the JSON report. */
class JsonReportTimesTest {

  private static BootRecord boot(String arm, int pair, long startedAt, long endedAt) {
    RunFacts facts = new RunFacts("sim", "6.1.0", 1, arm.equals("base") ? 0 : 1, 2500, 9000, 10, "", "",
        "", "", List.of(), List.of()).withTimes(startedAt, endedAt);
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, arm.equals("base") ? 0 : 1,
        false), BootRecord.OK, "sim", "sim", false,
        List.of(new BootSample("boot_ms", 100 + pair, "ms", "lower", false)), facts);
  }

  private static JsonNode render(long startedAt, long endedAt) throws Exception {
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      boots.add(boot("base", p, startedAt, endedAt));
      boots.add(boot("cand", p, startedAt, endedAt));
    }
    Design d = new Design("e1", "base", List.of("cand"), "", List.of(), Set.of(), new Policy(0.02, 0.05), 1, null);
    Report r = new Report(d, Assessor.assess(d.verdict(), boots), new Run("completed", 1, 2, 2, 0, 0, "", false, boots));
    return new ObjectMapper().readTree(JsonReport.render(r)).at("/boots/0");
  }

  @Test
  void writesEachBootsStartAndEndWallTimes() throws Exception {
    JsonNode boot = render(1_764_900_000_123L, 1_764_900_009_456L);

    assertThat(boot.get("started_at_ms").asLong()).isEqualTo(1_764_900_000_123L);
    assertThat(boot.get("ended_at_ms").asLong()).isEqualTo(1_764_900_009_456L);
  }

  @Test
  void leavesOutTimesTheWorkerDidNotReport() throws Exception {
    JsonNode boot = render(0, 0);

    assertThat(boot.has("started_at_ms")).isFalse();
    assertThat(boot.has("ended_at_ms")).isFalse();
  }
}
