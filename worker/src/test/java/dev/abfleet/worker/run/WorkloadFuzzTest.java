package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.worker.guest.GoBenchLine;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.guest.WorkloadLine;
import dev.abfleet.worker.guest.WorkloadOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated input through the guest protocol, both workload output parsers and the
 * workload's judgement (seeded, so a failure replays): never an exception, and every boot ends
 * with samples or a classified problem.
 */
class WorkloadFuzzTest {
  private static final long SEED = 0x5eed_f00dL;
  private static final int CASES = 4000;
  private static final String ALPHABET = "{}[]\":,\\ \t\r\n\u0000\u00e9\uFFFD0123456789.-+eE/_aBchkmnr"
      + "BenchmarkXns/opMB/sevntworkload_endlinexit_statusmetricvalueunitbetterhigherlowertruefalseNaN";
  private static final List<String> SEEDS = List.of(
      "{\"metric\":\"open_close\",\"value\":1.5,\"unit\":\"ops/s\",\"better\":\"higher\"}",
      "{\"metric\":\"lat\",\"value\":7,\"unit\":\"us\",\"better\":\"lower\",\"warmup\":true}",
      "BenchmarkStat-2   1000   2400 ns/op   410.5 MB/s   3 allocs/op",
      "BenchmarkOpen/size=4k-8 10 12.5 ns/op",
      "goos: linux",
      "PASS");
  private static final List<String> EVENTS = List.of(
      "{\"event\":\"start\",\"harness\":\"fleetbench\",\"kernel\":\"6.1\",\"uptime_ms\":900}",
      "{\"event\":\"workload\",\"line\":\"BenchmarkStat-2 10 5 ns/op\"}",
      "{\"event\":\"workload\",\"line\":\"{\\\"metric\\\":\\\"m\\\",\\\"value\\\":1,\\\"unit\\\":\\\"ops/s\\\","
          + "\\\"better\\\":\\\"higher\\\"}\",\"cut\":false}",
      "{\"event\":\"workload_end\",\"exit_status\":0,\"signal\":0,\"timed_out\":false,\"flooded\":false,"
          + "\"timeout_s\":600,\"lines\":1,\"elapsed_ms\":5}",
      "{\"event\":\"telemetry\",\"metric\":\"workload\",\"work\":1.0,\"work_unit\":\"run\",\"interrupts\":{\"RES\":3},"
          + "\"context_switches\":4,\"interrupts_total\":5}",
      "{\"event\":\"done\",\"elapsed_ms\":10}");

  @Test
  void randomBytesOnTheResultsChannelNeverThrowAndEndInSamplesOrAProblem() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int i = 0; i < CASES; i++) {
      byte[] bytes = new byte[random.nextInt(2000)];
      for (int j = 0; j < bytes.length; j++) {
        bytes[j] = (byte) random.nextInt(256);
      }
      judge(GuestProtocol.parse(bytes), i % 2 == 0 ? "jsonl" : "gobench", "random bytes case " + i);
    }
  }

  @Test
  void mutatedProtocolStreamsNeverThrowAndEndInSamplesOrAProblem() {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    for (int i = 0; i < CASES; i++) {
      List<String> lines = new ArrayList<>();
      int n = random.nextInt(12);
      for (int j = 0; j < n; j++) {
        String line = EVENTS.get(random.nextInt(EVENTS.size()));
        lines.add(random.nextInt(3) == 0 ? mutate(line, random) : line);
      }
      ParsedRun parsed = GuestProtocol.parse(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
      judge(parsed, i % 2 == 0 ? "jsonl" : "gobench", "case " + i + ": " + lines);
    }
  }

  @Test
  void bothOutputParsersGiveEachLineASampleOrAnErrorNeverAnException() {
    SplittableRandom random = new SplittableRandom(SEED + 2);
    for (int i = 0; i < CASES; i++) {
      List<WorkloadLine> lines = new ArrayList<>();
      int n = 1 + random.nextInt(8);
      for (int j = 0; j < n; j++) {
        String text = random.nextInt(4) == 0 ? randomText(random) : mutate(SEEDS.get(random.nextInt(SEEDS.size())), random);
        lines.add(new WorkloadLine(j + 1, text, random.nextInt(20) == 0));
      }
      for (WorkloadOutput.Format format : WorkloadOutput.Format.values()) {
        WorkloadOutput.Parsed p = WorkloadOutput.parse(format, lines);
        String as = format + " " + lines;
        assertThat(p.errors()).as(as).allSatisfy(e -> assertThat(e.message()).startsWith("workload stdout line ")
            .doesNotContain("internal parser error"));
        assertThat(p.errors().size() + p.errorsOmitted()).as(as).isLessThanOrEqualTo(lines.size());
        p.samples().forEach(s -> assertThat(Double.isFinite(s.value())).as(as).isTrue());
        if (p.errors().isEmpty()) {
          assertThat(p.firstBad()).as(as).isEmpty();
        } else {
          assertThat(p.firstBad()).as(as).isPresent();
        }
      }
    }
  }

  @Test
  void theGoBenchLineParserNeverThrowsAndSaysWhatItRead() {
    SplittableRandom random = new SplittableRandom(SEED + 3);
    for (int i = 0; i < CASES; i++) {
      String text = random.nextBoolean() ? randomText(random) : mutate(SEEDS.get(2 + random.nextInt(2)), random);
      GoBenchLine.Line l = GoBenchLine.parse(text);
      if (!l.benchmark()) {
        assertThat(l.error()).as(text).isNull();
        assertThat(l.measurements()).as(text).isEmpty();
      } else if (l.error() == null) {
        assertThat(l.measurements()).as(text).isNotEmpty();
        assertThat(l.name()).as(text).isNotEmpty();
      }
    }
  }

  /** The judgement of one boot: a workload either gave samples and no problem, or a problem. */
  private static void judge(ParsedRun parsed, String output, String as) {
    Benchmark b = Benchmark.newBuilder().setWorkload(Workload.newBuilder().setRun("x").setOutput(output)).build();
    assertThat(parsed.parseErrors()).as(as).noneSatisfy(e -> assertThat(e.message()).contains("internal parser error"));
    WorkloadRun.Outcome o = WorkloadRun.read(b, parsed, Optional.empty());
    assertThat(o.errors()).as(as).noneSatisfy(e -> assertThat(e.message()).contains("internal parser error"));
    if (o.problem().isEmpty()) {
      assertThat(o.samples()).as(as).isNotEmpty();
      assertThat(parsed.workloadEnd()).as(as).hasValueSatisfying(e -> assertThat(e.succeeded()).isTrue());
    } else {
      assertThat(o.problem().orElseThrow()).as(as).isNotBlank();
    }
  }

  private static String mutate(String s, SplittableRandom random) {
    StringBuilder b = new StringBuilder(s);
    int edits = 1 + random.nextInt(4);
    for (int k = 0; k < edits; k++) {
      int at = b.length() == 0 ? 0 : random.nextInt(b.length());
      char c = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
      switch (random.nextInt(3)) {
        case 0 -> b.insert(at, c);
        case 1 -> {
          if (b.length() > 0) {
            b.deleteCharAt(at);
          }
        }
        default -> {
          if (b.length() > 0) {
            b.setCharAt(at, c);
          }
        }
      }
    }
    return b.toString();
  }

  private static String randomText(SplittableRandom random) {
    StringBuilder b = new StringBuilder();
    int n = random.nextInt(120);
    for (int k = 0; k < n; k++) {
      b.append(random.nextInt(5) == 0 ? (char) random.nextInt(0x3000) : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return b.toString();
  }
}
