package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Counter ratios declared in a spec file, through submission, the journal and the report, over
 * the rows a real guest counts: Debian's generic 6.1 kernel with 2 vCPUs on the host volume
 * (virtio-fs here, else 9p), whose device request interrupts are the row the glob
 * {@code virtio*-request*} must find. negative_lookup, because every lookup of a missing name
 * reaches the host (metadata_stat on a virtio-fs share with cache=auto is answered from the
 * guest's cache, and a boot can send no request in its window: that pair then has no ratio). The
 * report's numbers are recomputed here from its own per-boot telemetry.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class AbCounterRatiosE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void declaredRatiosOverTheGuestsRealRowsReachTheJsonAndTextReports(@TempDir Path dir)
      throws Exception {
    Path k = Kernels.generic();
    Path spec = Files.writeString(dir.resolve("ratios.yaml"), String.join("\n",
        "benchmark: host-volume",
        "metrics: [negative_lookup]",
        "files: 100",
        // One more than six: a pair that loses a boot (AaReports.completedBoots) still leaves six,
        // enough for the sign test's 95% interval.
        "pairs: 7",
        "iterations: 2",
        "vm: {vcpus: 2}",
        "ratios:",
        "  - {name: ctxt_per_req, num: ctxt, den: \"virtio*-request*\"}",
        "  - {name: res_per_req, num: RES, den: \"virtio*-request*\"}",
        "arms:",
        "  - {name: a, role: baseline, kernel: " + k + "}",
        "  - {name: b, role: candidate, kernel: " + k + "}",
        ""));
    Cli.Result r = Cli.run(dir, 20, "ab", "--spec", spec.toString(), "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());

    JsonNode ratios = report.get("ratios");
    assertThat(ratios).as(report.toString()).isNotNull();
    assertThat(ratios).extracting(n -> n.get("name").asText())
        .containsExactly("ctxt_per_req", "res_per_req");
    JsonNode ctxt = ratios.get(0);
    assertThat(ctxt.get("arm").asText()).isEqualTo("b");
    assertThat(ctxt.get("metric").asText()).isEqualTo("negative_lookup");
    assertThat(ctxt.get("den").asText()).isEqualTo("virtio*-request*");

    // The pairs whose two boots completed, and the baseline median recomputed from their own counters.
    Map<Integer, Map<String, JsonNode>> pairs = new TreeMap<>();
    for (JsonNode b : AaReports.completedBoots(report)) {
      if (!b.has("warmup_boot")) {
        pairs.computeIfAbsent(b.get("pair").asInt(), i -> new HashMap<>()).put(b.get("arm").asText(), b);
      }
    }
    pairs.values().removeIf(p -> p.size() < 2);
    assertThat(pairs).as(report.toString()).hasSizeGreaterThanOrEqualTo(6);
    assertThat(ctxt.get("pairs").asInt()).as(ctxt.toString()).isEqualTo(pairs.size());
    assertThat(ctxt.get("ci_low").isNumber()).as(ctxt.toString()).isTrue();
    List<Double> base = new ArrayList<>();
    for (Map<String, JsonNode> pair : pairs.values()) {
      JsonNode t = pair.get("a").at("/telemetry/negative_lookup");
      double requests = 0;
      for (var it = t.get("interrupts").fields(); it.hasNext(); ) {
        var e = it.next();
        if (e.getKey().matches("virtio.*-request.*")) {
          requests += e.getValue().asDouble();
        }
      }
      assertThat(requests).as(t.toString()).isPositive();
      base.add(t.get("context_switches").asDouble() / requests);
    }
    assertThat(ctxt.get("baseline").asDouble()).isCloseTo(median(base),
        org.assertj.core.api.Assertions.within(1e-9));
  }

  private static double median(List<Double> v) {
    List<Double> s = v.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
