package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.controller.experiment.ArmSpec;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.controller.experiment.PolicySpec;
import dev.abfleet.controller.experiment.ReportInputs;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.experiment.Sample;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.grpc.DomainToProto;
import dev.abfleet.report.JsonReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same boots judged live (the experiment entity's verdicts, sent over gRPC and rendered by
 * {@code ab}) and offline ({@code abfleet analyze} of the boots written as JSON Lines) give the
 * same verdict fields, boot failures included.
 */
class LiveOfflineParityTest {
  private static final long SEED = 7;
  private static final List<String> VERDICT_FIELDS = List.of("design", "pairs_done", "overall",
      "host_classes", "class_heterogeneity", "comparisons", "boot_failures");

  @TempDir Path dir;

  static ExperimentSpec spec() {
    return new ExperimentSpec("parity",
        List.of(
            new ArmSpec("base", ArmSpec.Role.BASELINE, new ArtifactRef("a".repeat(64), "/k/a", 0),
                null, "", 1, 512),
            new ArmSpec("cand", ArmSpec.Role.CANDIDATE, new ArtifactRef("b".repeat(64), "/k/b", 0),
                null, "", 1, 512)),
        new BenchmarkSpec("", List.of("metadata_stat", "seq_read"), 3, 100, 1),
        HostSelector.any(),
        new PolicySpec(0.02, 0.05, 14, SEED, 0, List.of("metadata_stat", "seq_read")), "pr");
  }

  /**
   * 14 pairs on two hosts, candidate -20% on metadata_stat; the candidate fails to boot in seven
   * pairs, the baseline in none (a significant boot-failure regression); each boot has a warm-up iteration far off the others.
   */
  static Map<Integer, List<RunOutcome>> pairs() {
    SplittableRandom r = new SplittableRandom(3);
    Map<Integer, List<RunOutcome>> pairs = new TreeMap<>();
    for (int p = 0; p < 14; p++) {
      String host = p % 2 == 0 ? "h1" : "h2";
      boolean baseFirst = p % 4 < 2;
      RunOutcome base = boot("base", host, p, baseFirst ? 0 : 1, 1000 * noise(r), false);
      RunOutcome cand = boot("cand", host, p, baseFirst ? 1 : 0, 800 * noise(r), p % 4 == 1 || p % 4 == 2);
      pairs.put(p, baseFirst ? List.of(base, cand) : List.of(cand, base));
    }
    return pairs;
  }

  private static double noise(SplittableRandom r) {
    return Math.exp(0.03 * (r.nextDouble() - 0.5));
  }

  private static RunOutcome boot(String arm, String host, int pair, int order, double stat,
      boolean failed) {
    List<Sample> samples = new ArrayList<>();
    if (!failed) {
      samples.add(new Sample("metadata_stat", stat * 3, "ops/s", "higher", 0, true));
      for (int i = 1; i <= 3; i++) {
        samples.add(new Sample("metadata_stat", stat * (1 + 0.002 * i), "ops/s", "higher", i, false));
        samples.add(new Sample("seq_read", 500 + pair % 3 + i, "MiB/s", "higher", i, false));
      }
    }
    return new RunOutcome("r-" + pair + "-" + arm, arm, host, pair, order, 1,
        failed ? RunOutcome.Status.BOOT_FAILED : RunOutcome.Status.OK, "tcg", "qemu", 2000, 8000,
        10, "6.1.0", samples, failed ? "kernel did not reach the harness" : "", "");
  }

  /** The boots as {@code analyze} reads them, in boot order. */
  static List<String> jsonl(Map<Integer, List<RunOutcome>> pairs) {
    List<String> lines = new ArrayList<>();
    for (List<RunOutcome> boots : pairs.values()) {
      for (RunOutcome o : boots) {
        String head = String.format(Locale.ROOT,
            "{\"experiment\":\"parity\",\"arm\":\"%s\",\"host\":\"%s\",\"pair\":%d,\"boot\":\"%s\"",
            o.arm(), o.hostId(), o.pairIndex(), o.runId());
        if (o.status() != RunOutcome.Status.OK) {
          lines.add(head + ",\"status\":\"" + o.status().wire() + "\"}");
        }
        for (Sample s : o.samples()) {
          lines.add(head + String.format(Locale.ROOT, ",\"metric\":\"%s\",\"value\":%s,"
              + "\"unit\":\"%s\",\"better\":\"%s\",\"iteration\":%d,\"warmup\":%b}", s.metric(),
              Double.toString(s.value()), s.unit(), s.better(), s.iteration(), s.warmup()));
        }
      }
    }
    return lines;
  }

  @Test
  void liveAndOfflineVerdictsOfTheSameBootsAreIdentical() throws IOException {
    ExperimentSpec spec = spec();
    Map<Integer, List<RunOutcome>> pairs = pairs();
    List<RunOutcome> boots = pairs.values().stream().flatMap(List::stream).toList();
    ExperimentView view = new ExperimentView("parity", spec, "completed", 14, 14, SEED,
        ReportInputs.assess(spec, pairs, SEED), boots, "", 0, 0, 0);
    JsonNode live = JsonReport.experiment(ProtoReports.of(DomainToProto.experiment(view, 0, 0)));

    Path file = Files.write(dir.resolve("boots.jsonl"), jsonl(pairs));
    var run = AnalyzeCommandTest.run("analyze", "--format", "json", "--seed", Long.toString(SEED),
        file.toString());
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode offline = new ObjectMapper().readTree(run.out()).get("experiments").get(0);

    assertThat(live.get("boot_failures").get(0).get("candidate_failed").asInt()).isEqualTo(7);
    assertThat(live.get("boot_failures").get(0).get("verdict").asText()).isEqualTo("regressed");
    assertThat(live.get("overall").asText()).isEqualTo("regressed");
    assertThat(live.get("comparisons")).hasSize(2);
    assertThat(verdictFields(offline)).isEqualTo(verdictFields(live));
  }

  private static ObjectNode verdictFields(JsonNode experiment) {
    ObjectNode out = new ObjectMapper().createObjectNode();
    VERDICT_FIELDS.forEach(f -> out.set(f, experiment.get(f)));
    return out;
  }
}
