package dev.abfleet.cli.analyze;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** analyze with a host_class on each sample: per-class rows and a pooled row. */
class AnalyzeHostClassesTest {
  @TempDir Path dir;

  /** 24 pairs, even on host k (qemu/kvm), odd on host v (vz/vz); cand is -20% on vz only. */
  static List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      boolean kvm = i % 2 == 0;
      double noise = 1 + 0.002 * ((i * 7) % 5 - 2);
      for (String arm : new String[] {"base", "cand"}) {
        double f = arm.equals("cand") && !kvm ? 0.8 : 1.0;
        lines.add(String.format(Locale.ROOT, "{\"arm\":\"%s\",\"host\":\"%s\",\"pair\":%d,"
            + "\"boot\":\"%s-%d\",\"metric\":\"stat\",\"value\":%.3f,\"unit\":\"ops/s\","
            + "\"better\":\"higher\",\"host_class\":\"%s\"}", arm, kvm ? "k" : "v", i, arm, i,
            1000 * noise * f, kvm ? "qemu/kvm" : "vz/vz"));
      }
    }
    return lines;
  }

  @Test
  void samplesWithHostClassesGetClassRowsAndAPooledRowWithTheFlag() throws IOException {
    Path f = Files.write(dir.resolve("x.jsonl"), lines());
    var r = AnalyzeCommandTest.run("analyze", "--format", "json", f.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode rows = new ObjectMapper().readTree(r.out()).get("experiments").get(0).get("comparisons");
    assertThat(rows).hasSize(3);
    assertThat(rows.get(0).get("host_class").asText()).isEmpty();
    assertThat(rows.get(0).get("verdict").asText()).isEqualTo("inconclusive");
    assertThat(rows.get(0).get("reasons").get(0).asText()).isEqualTo("class_heterogeneity");
    assertThat(rows.get(1).get("host_class").asText()).isEqualTo("qemu/kvm");
    assertThat(rows.get(1).get("verdict").asText()).isEqualTo("no_change");
    assertThat(rows.get(2).get("host_class").asText()).isEqualTo("vz/vz");
    assertThat(rows.get(2).get("verdict").asText()).isEqualTo("regressed");
    assertThat(AnalyzeCommandTest.run("analyze", "--gate", f.toString()).code())
        .isEqualTo(ExitCodes.GATE);
  }

  @Test
  void textOutputHasAHostClassColumn() throws IOException {
    Path f = Files.write(dir.resolve("x.jsonl"), lines());
    String out = AnalyzeCommandTest.run("analyze", f.toString()).out();
    assertThat(out).contains("host class").contains("pooled").contains("vz/vz");
  }

  @Test
  void aBlankHostClassIsBadInputNamingTheLineAndTheFix() throws IOException {
    List<String> lines = new ArrayList<>(lines());
    lines.set(0, lines.get(0).replace("\"host_class\":\"qemu/kvm\"", "\"host_class\":\"\""));
    Path f = Files.write(dir.resolve("bad.jsonl"), lines);
    var r = AnalyzeCommandTest.run("analyze", f.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains(f + ":1: host_class must be a non-empty string")
        .contains("leave it out when all boots ran on one class of host");
  }
}
