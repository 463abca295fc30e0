package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading the JSON reports of real runs: an A/A's, where a verdict by chance is possible at the
 * family-wise alpha, and one comparison row.
 */
final class AaReports {
  private AaReports() {}

  /** Runs an A/A and returns its report. */
  @FunctionalInterface
  interface AaRun {
    JsonNode run() throws Exception;
  }

  /**
   * The report of an A/A that decided nothing. At 6 pairs the joint rule decides a true A/A when
   * its sign pattern is the most extreme of 64: about 3% of runs call some metric by chance. A
   * second, independent run tells chance (both decided: about 0.1%) from a systematic false
   * verdict, which repeats and fails the test.
   */
  static JsonNode undecided(AaRun aa) throws Exception {
    JsonNode report = aa.run();
    List<String> decided = decided(report);
    if (decided.isEmpty()) {
      return report;
    }
    JsonNode again = aa.run();
    assertThat(decided(again)).as("decided twice in a row: first " + decided + ", then").isEmpty();
    return again;
  }

  /**
   * The boots of a report that completed. Under TCG a guest very rarely stops or hangs
   * mid-harness with no message at all: once in about 1,300 two-vCPU boots here QEMU exited 0
   * during create_delete, and once a one-vCPU self-built kernel went silent in find_recursive on
   * virtio-fs until its 180 s timeout, its daemon idle. The pair is judged without it. More than
   * one such boot, or any other failure, fails the test.
   */
  static List<JsonNode> completedBoots(JsonNode report) {
    List<JsonNode> ok = new ArrayList<>();
    List<JsonNode> stopped = new ArrayList<>();
    for (JsonNode b : pairedBoots(report)) {
      String status = b.get("status").asText();
      if (status.equals("ok")) {
        ok.add(b);
      } else {
        assertThat(b.get("message").asText()).as(b.toString()).contains(
            status.equals("timeout") ? "while the harness was running" : "before the harness's done line");
        stopped.add(b);
      }
    }
    assertThat(stopped).as("boots that stopped or hung mid-harness").hasSizeLessThanOrEqualTo(1);
    return ok;
  }

  /**
   * The boots of a report's pairs: without those of pairs re-run because a busy neighbour
   * disturbed them (the default quiet-host policy; listed with rerun: true, never in a verdict).
   */
  static List<JsonNode> pairedBoots(JsonNode report) {
    List<JsonNode> out = new ArrayList<>();
    report.get("boots").forEach(b -> {
      if (!b.path("rerun").asBoolean()) {
        out.add(b);
      }
    });
    return out;
  }

  /** The comparisons called improved or regressed, whole. */
  static List<String> decided(JsonNode report) {
    List<String> out = new ArrayList<>();
    for (JsonNode c : report.get("comparisons")) {
      if (List.of("improved", "regressed").contains(c.get("verdict").asText())) {
        out.add(c.toString());
      }
    }
    return out;
  }

  /** The pooled (no host class) comparison of {@code arm} on {@code metric}. */
  static JsonNode row(JsonNode report, String arm, String metric) {
    for (JsonNode c : report.get("comparisons")) {
      if (c.get("arm").asText().equals(arm) && c.get("metric").asText().equals(metric)
          && c.get("host_class").asText().isEmpty()) {
        return c;
      }
    }
    throw new AssertionError("no row " + arm + "/" + metric + " in " + report.get("comparisons"));
  }
}
