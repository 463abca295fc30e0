package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code abfleet ab} on a real Debian kernel, booted in real QEMU (TCG here). */
@Tag("e2e")
class AbVerdictE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int AA_PAIRS = 12;
  // The slab-heavy metrics drop by about 60% under slub_debug, but one pair of 8 whose baseline
  // boot ran slow (a busy host, TCG's bimodal boots) already left create_delete at p 0.0625 (the
  // sign-flip test's p with one of 8 pairs reversed); with 12 pairs one reversed pair still
  // leaves p near 26/4096, well under alpha after the maxT adjustment over four metrics.
  private static final int SLUB_PAIRS = 12;

  @Test
  void sameKernelOnBothArmsIsNeverCalledImprovedOrRegressed(@TempDir Path dir) throws Exception {
    Path k = Kernels.cloud();
    // Two iterations per metric and boot: an A/A needs no precision, and halves the harness's time.
    // The level: this test fails on any call, so its false-failure rate is the family-wise error
    // rate. At 8 pairs and alpha 0.05 that was about 3% (the sign-flip test's smallest p, 2/256,
    // is under Holm's first threshold for four metrics, 0.0125, so a metric whose 8 pairs merely
    // agree in sign is called: metadata_stat, bimodal per boot, once read 34k on every a and 62k
    // on every b). At 12 pairs and 0.004 it is at most 0.4%, and a bias between the arms (order,
    // staging) beyond the noise threshold in all 12 pairs is still called (p 2/4096 < 0.001).
    Cli.Result r = Cli.run(dir, 15, "ab", "--baseline", "a=" + k, "--candidate", "b=" + k,
        "--pairs", String.valueOf(AA_PAIRS), "--alpha", "0.004", "--iterations", "2", "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("pairs_done").asInt()).isEqualTo(AA_PAIRS);
    assertThat(report.get("comparisons")).hasSize(4);
    for (JsonNode c : report.get("comparisons")) {
      assertThat(c.get("verdict").asText()).as("%s%nboots: %s", c, bootValues(report, c.get("metric").asText()))
          .isIn("no_change", "holds", "inconclusive"); // holds: no regression beyond the threshold, no call
      assertThat(c.get("n_pairs").asInt()).isEqualTo(AA_PAIRS);
    }
    assertBootsArePairedAndBalanced(report, AA_PAIRS);
  }

  @Test
  void slubDebugCandidateRegressesSlabHeavyMetrics(@TempDir Path dir) throws Exception {
    Path k = Kernels.cloud();
    Cli.Result r = Cli.run(dir, 15, "ab", "--baseline", "stock=" + k,
        "--candidate", "slub=" + k + ":slub_debug=FZPU", "--pairs", String.valueOf(SLUB_PAIRS), "--format", "json",
        "--gate");
    assertThat(r.exit()).as("--gate exits 1 on a gating regression; stderr:\n" + r.err()).isEqualTo(1);
    JsonNode report = JSON.readTree(r.out());
    Map<String, JsonNode> byMetric = new HashMap<>();
    report.get("comparisons").forEach(c -> byMetric.put(c.get("metric").asText(), c));
    for (String metric : new String[] {"create_delete", "metadata_stat"}) {
      JsonNode c = byMetric.get(metric);
      assertThat(c.get("verdict").asText()).as(c.toString()).isEqualTo("regressed");
      assertThat(c.get("ci_high").asDouble()).as(c.toString()).isLessThan(0);
      assertThat(c.get("change").asDouble()).isLessThan(-0.10);
    }
    assertBootsArePairedAndBalanced(report, SLUB_PAIRS);
  }

  /** "p0 a(first) [v1, v2] b [v1, v2]; ...": each boot's values of {@code metric}, for a failure's message. */
  private static String bootValues(JsonNode report, String metric) {
    StringBuilder out = new StringBuilder();
    for (JsonNode b : report.get("boots")) {
      out.append("p").append(b.path("pair").asInt()).append(' ').append(b.path("arm").asText())
          .append(b.path("order").asInt() == 0 ? "(first) " : " ").append(b.at("/values/" + metric))
          .append(" boot_ms=").append(b.path("boot_ms").asLong()).append("; ");
    }
    return out.toString();
  }

  /**
   * Every pair: one boot per arm, same host, same lease; half the pairs boot the baseline first.
   * Boots of pairs re-run because the host was busy (rerun: true, listed for the record) aside.
   */
  static void assertBootsArePairedAndBalanced(JsonNode report, int pairs) {
    List<JsonNode> boots = AaReports.pairedBoots(report);
    assertThat(boots).hasSize(2 * pairs);
    Map<Integer, Set<String>> armsPerPair = new HashMap<>();
    Map<Integer, String> hostPerPair = new HashMap<>();
    int baselineFirst = 0;
    Set<String> runIds = new HashSet<>();
    for (JsonNode b : boots) {
      assertThat(runIds.add(b.get("run_id").asText())).as("duplicate run " + b).isTrue();
      int pair = b.get("pair").asInt();
      assertThat(b.get("accelerator").asText()).isIn("tcg", "kvm");
      assertThat(b.get("status").asText()).isEqualTo("ok");
      assertThat(b.get("boot_ms").asLong()).isPositive();
      assertThat(b.get("run_ms").asLong()).isGreaterThanOrEqualTo(b.get("boot_ms").asLong());
      assertThat(b.get("values").get("metadata_stat")).isNotEmpty();
      assertThat(armsPerPair.computeIfAbsent(pair, p -> new HashSet<>()).add(b.get("arm").asText())).isTrue();
      String host = hostPerPair.putIfAbsent(pair, b.at("/host/id").asText());
      assertThat(host == null || host.equals(b.at("/host/id").asText())).as("pair %d on one host", pair).isTrue();
      if (b.get("order").asInt() == 0 && b.get("arm").asText().equals(report.get("baseline").asText())) {
        baselineFirst++;
      }
    }
    assertThat(armsPerPair).hasSize(pairs);
    assertThat(baselineFirst).as("AB/BA balanced").isEqualTo(pairs / 2);
  }
}
