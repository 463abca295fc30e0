package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GuestProtocolTest {

  private static final String START =
      "{\"event\":\"start\",\"harness\":\"fleetbench\",\"version\":\"1\","
          + "\"kernel\":\"6.1.0-50-cloud-amd64\",\"arch\":\"x86_64\",\"uptime_ms\":2310}";
  private static final String SAMPLE =
      "{\"metric\":\"metadata_stat\",\"value\":50300.0,\"unit\":\"ops/s\",\"better\":\"higher\","
          + "\"iteration\":2,\"warmup\":false}";
  private static final String DONE = "{\"event\":\"done\",\"elapsed_ms\":3021}";

  @Test
  void parsesStartSamplesAndDoneOfACleanRun() {
    ParsedRun run = GuestProtocol.parse(List.of(START, SAMPLE, DONE));

    assertThat(run.samples())
        .containsExactly(new GuestSample("metadata_stat", 50300.0, "ops/s", Better.HIGHER, 2, false));
    assertThat(run.start()).hasValueSatisfying(s -> {
      assertThat(s.kernelRelease()).isEqualTo("6.1.0-50-cloud-amd64");
      assertThat(s.arch()).isEqualTo("x86_64");
      assertThat(s.bootTime()).contains(Duration.ofMillis(2310));
    });
    assertThat(run.done()).isTrue();
    assertThat(run.elapsedMs()).hasValue(3021);
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.complete()).isTrue();
  }

  @Test
  void stripsCarriageReturnsOfCrLfLines() {
    ParsedRun run = GuestProtocol.parse(START + "\r\n" + SAMPLE + "\r\n" + DONE + "\r\n");

    assertThat(run.samples()).hasSize(1);
    assertThat(run.done()).isTrue();
    assertThat(run.parseErrors()).isEmpty();
  }

  @Test
  void skipsSerialNoiseBeforeTheFirstObject() {
    ParsedRun run = GuestProtocol.parse(List.of("Booting from ROM..\u001b[?7l\u001b[2J\0" + SAMPLE));

    assertThat(run.samples()).extracting(GuestSample::value).containsExactly(50300.0);
    assertThat(run.parseErrors()).isEmpty();
  }

  @Test
  void skipsNoiseThatItselfContainsABrace() {
    ParsedRun run = GuestProtocol.parse(List.of("x{\u0007" + SAMPLE));

    assertThat(run.samples()).hasSize(1);
    assertThat(run.parseErrors()).isEmpty();
  }

  @Test
  void reportsALineThatIsNotJsonAndKeepsGoing() {
    ParsedRun run = GuestProtocol.parse(List.of("[    1.23] random: crng init done", SAMPLE));

    assertThat(run.parseErrors()).singleElement().satisfies(e -> {
      assertThat(e.lineNumber()).isEqualTo(1);
      assertThat(e.message()).startsWith("not a JSON object").contains("crng init done");
    });
    assertThat(run.samples()).hasSize(1);
  }

  @Test
  void keepsTheFirstTwentyParseErrorsAndCountsTheRest() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      lines.add("garbage " + i);
    }
    lines.add(SAMPLE);

    ParsedRun run = GuestProtocol.parse(lines);

    assertThat(run.parseErrors()).hasSize(20);
    assertThat(run.parseErrors()).extracting(ParseError::lineNumber).startsWith(1, 2).endsWith(20);
    assertThat(run.parseErrorsOmitted()).isEqualTo(100_000 - 20);
    assertThat(run.samples()).as("parsing goes on after the cap").hasSize(1);
  }

  @Test
  void reportsATruncatedLine() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE.substring(0, 40)));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).extracting(ParseError::lineNumber).containsExactly(1);
  }

  @Test
  void rejectsTrailingBytesAfterTheObject() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE + "garbage"));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).hasSize(1);
  }

  @Test
  void reportsAMissingFieldWithItsName() {
    ParsedRun run = GuestProtocol.parse(
        List.of("{\"metric\":\"seq_read\",\"value\":900.5,\"better\":\"higher\",\"iteration\":0}"));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).singleElement()
        .isEqualTo(new ParseError(1, "seq_read: missing field \"unit\"; a sample needs metric, value, unit, better and iteration"));
  }

  @Test
  void rejectsANanValue() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE.replace("50300.0", "NaN")));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).singleElement()
        .extracting(ParseError::message).isEqualTo("metadata_stat: non-finite value NaN; report finite numbers (leave out a value that was not measured)");
  }

  @Test
  void rejectsAValueThatOverflowsToInfinity() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE.replace("50300.0", "1e999")));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).singleElement()
        .extracting(ParseError::message).asString().contains("non-finite value");
  }

  @Test
  void rejectsAnUnknownBetterDirection() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE.replace("\"higher\"", "\"up\"")));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).singleElement()
        .extracting(ParseError::message)
        .isEqualTo("metadata_stat: unknown better 'up'; expected higher or lower");
  }

  @Test
  void rejectsANegativeIteration() {
    ParsedRun run = GuestProtocol.parse(List.of(SAMPLE.replace("\"iteration\":2", "\"iteration\":-1")));

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).hasSize(1);
  }

  @Test
  void collectsHarnessErrorEventsSeparatelyFromParseErrors() {
    ParsedRun run = GuestProtocol.parse(List.of(
        START,
        "{\"event\":\"error\",\"metric\":\"seq_read\",\"message\":\"write /bench/x: No space left on device\"}",
        DONE));

    assertThat(run.harnessErrors()).containsExactly(
        new HarnessError(2, "seq_read", "write /bench/x: No space left on device"));
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.done()).isTrue();
    assertThat(run.complete()).isFalse();
  }

  @Test
  void reportsAnUnknownEvent() {
    ParsedRun run = GuestProtocol.parse(List.of("{\"event\":\"reboot\"}"));

    assertThat(run.parseErrors()).containsExactly(new ParseError(1, "unknown event 'reboot'; expected start, done, error, telemetry, setup_error, workload or workload_end"));
  }

  @Test
  void keepsTheFirstOfTwoStartEvents() {
    ParsedRun run = GuestProtocol.parse(List.of(START, START.replace("x86_64", "aarch64")));

    assertThat(run.start()).hasValueSatisfying(s -> assertThat(s.arch()).isEqualTo("x86_64"));
    assertThat(run.parseErrors()).extracting(ParseError::lineNumber).containsExactly(2);
  }

  @Test
  void acceptsAStartEventWithoutUptime() {
    ParsedRun run = GuestProtocol.parse(List.of(START.replace("2310", "null")));

    assertThat(run.start()).hasValueSatisfying(s -> assertThat(s.bootTime()).isEmpty());
  }

  @Test
  void dropsWarmupSamplesFromTheMeasuredOnes() {
    ParsedRun run = GuestProtocol.parse(List.of(
        SAMPLE.replace("\"iteration\":2,\"warmup\":false", "\"iteration\":0,\"warmup\":true"),
        SAMPLE));

    assertThat(run.samples()).hasSize(2);
    assertThat(run.measuredSamples()).extracting(GuestSample::iteration).containsExactly(2);
  }

  @Test
  void yieldsAnEmptyRunForEmptyInput() {
    ParsedRun run = GuestProtocol.parse("");

    assertThat(run.samples()).isEmpty();
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.start()).isEmpty();
    assertThat(run.done()).isFalse();
  }

  @Test
  void toleratesNullInputAndNullLines() {
    assertThat(GuestProtocol.parse((List<String>) null).samples()).isEmpty();
    assertThat(GuestProtocol.parse(Arrays.asList(null, SAMPLE)).samples()).hasSize(1);
  }

  @Test
  void decodesInvalidUtf8BytesWithoutFailing() {
    byte[] noise = {(byte) 0xff, (byte) 0xfe, '\n'};
    byte[] sample = (SAMPLE + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[noise.length + sample.length];
    System.arraycopy(noise, 0, all, 0, noise.length);
    System.arraycopy(sample, 0, all, noise.length, sample.length);

    ParsedRun run = GuestProtocol.parse(all);

    assertThat(run.samples()).hasSize(1);
    assertThat(run.parseErrors()).extracting(ParseError::lineNumber).containsExactly(1);
  }

  @Test
  void rejectsAnOverlongLineWithoutParsingIt() {
    ParsedRun run = GuestProtocol.parse(List.of("{" + "x".repeat(GuestProtocol.MAX_LINE_CHARS)));

    assertThat(run.parseErrors()).singleElement()
        .extracting(ParseError::message).asString().startsWith("line too long");
  }

  @Test
  void readsATelemetryEventWithItsInterruptRowsAndCounters() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"metadata_stat\","
        + "\"work\":1500.0,\"work_unit\":\"ops\",\"interrupts\":{\"RES\":12,\"virtio1-requests\":3},"
        + "\"context_switches\":40,\"interrupts_total\":55}\n").getBytes(StandardCharsets.UTF_8));

    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.counters()).singleElement().satisfies(c -> {
      assertThat(c.metric()).isEqualTo("metadata_stat");
      assertThat(c.work()).isEqualTo(1500.0);
      assertThat(c.workUnit()).isEqualTo("ops");
      assertThat(c.interrupts()).containsEntry("RES", 12L).containsEntry("virtio1-requests", 3L);
      assertThat(c.contextSwitches()).isEqualTo(40);
      assertThat(c.interruptsTotal()).isEqualTo(55);
    });
  }

  @Test
  void aTelemetryEventWithoutProcStatSaysUnknownNotZero() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"seq_read\","
        + "\"work\":64,\"work_unit\":\"MiB\"}\n").getBytes(StandardCharsets.UTF_8));

    assertThat(run.counters()).singleElement().satisfies(c -> {
      assertThat(c.interrupts()).isEmpty();
      assertThat(c.contextSwitches()).isEqualTo(-1);
      assertThat(c.interruptsTotal()).isEqualTo(-1);
    });
  }

  @Test
  void aMalformedTelemetryEventIsAParseErrorNotACounter() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"m\","
        + "\"interrupts\":{\"RES\":-4}}\n{\"event\":\"telemetry\",\"work\":1}\n")
        .getBytes(StandardCharsets.UTF_8));

    assertThat(run.counters()).isEmpty();
    assertThat(run.parseErrors()).extracting(ParseError::message).containsExactly(
        "telemetry of m: interrupt row RES must be a count >= 0", "telemetry without a metric");
  }

  @Test
  void readsPerCpuRowsWakeupsAndThreadRatesOfATelemetryEvent() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"metadata_stat\","
        + "\"work\":10,\"work_unit\":\"ops\",\"interrupts\":{\"RES\":12},"
        + "\"interrupts_per_cpu\":{\"RES\":[5,7]},\"softirqs_per_cpu\":{\"SCHED\":[1,0],\"RCU\":[2,3]},"
        + "\"wakeups_per_cpu\":[40,41],\"thread_rates\":[1500.5,1499.25]}\n").getBytes(StandardCharsets.UTF_8));

    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.counters()).singleElement().satisfies(c -> {
      assertThat(c.interruptsPerCpu()).containsExactly(Map.entry("RES", List.of(5L, 7L)));
      assertThat(c.softirqsPerCpu()).containsEntry("SCHED", List.of(1L, 0L)).containsEntry("RCU", List.of(2L, 3L));
      assertThat(c.wakeupsPerCpu()).containsExactly(40L, 41L);
      assertThat(c.threadRates()).containsExactly(1500.5, 1499.25);
    });
  }

  @Test
  void aTelemetryEventOfAnOlderHarnessHasNoPerCpuDetail() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"seq_read\","
        + "\"work\":64,\"work_unit\":\"MiB\",\"interrupts\":{\"RES\":1}}\n").getBytes(StandardCharsets.UTF_8));

    assertThat(run.counters()).singleElement().satisfies(c -> {
      assertThat(c.interruptsPerCpu()).isEmpty();
      assertThat(c.softirqsPerCpu()).isEmpty();
      assertThat(c.wakeupsPerCpu()).isEmpty();
      assertThat(c.threadRates()).isEmpty();
    });
  }

  @Test
  void rejectsMalformedPerCpuRowsAndThreadRatesAsParseErrors() {
    ParsedRun run = GuestProtocol.parse(("{\"event\":\"telemetry\",\"metric\":\"a\","
        + "\"interrupts_per_cpu\":{\"RES\":[1,-2]}}\n"
        + "{\"event\":\"telemetry\",\"metric\":\"b\",\"softirqs_per_cpu\":[1]}\n"
        + "{\"event\":\"telemetry\",\"metric\":\"c\",\"wakeups_per_cpu\":[1.5]}\n"
        + "{\"event\":\"telemetry\",\"metric\":\"d\",\"thread_rates\":[\"fast\"]}\n")
        .getBytes(StandardCharsets.UTF_8));

    assertThat(run.counters()).isEmpty();
    assertThat(run.parseErrors()).extracting(ParseError::message).containsExactly(
        "telemetry of a: interrupts_per_cpu row RES must hold counts >= 0, got -2",
        "telemetry of b: softirqs_per_cpu must be an object",
        "telemetry of c: wakeups_per_cpu must hold counts >= 0, got 1.5",
        "telemetry of d: thread_rates must hold rates >= 0, got \"fast\"");
  }

  @Test
  void readsTheSetupErrorOfInit() {
    ParsedRun run = GuestProtocol.parse(List.of(
        "{\"event\":\"setup_error\",\"step\":\"insmod 009-9p.ko\",\"message\":\"invalid module format\"}"));

    assertThat(run.setupErrors()).extracting(SetupError::describe).containsExactly("insmod 009-9p.ko: invalid module format");
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.start()).isEmpty();
  }

  @Test
  void readsWorkloadLinesAndTheWorkloadEnd() {
    ParsedRun run = GuestProtocol.parse(List.of(START,
        "{\"event\":\"workload\",\"line\":\"BenchmarkStat-2  10  5 ns/op\"}",
        "{\"event\":\"workload\",\"line\":\"xxxx\",\"cut\":true}",
        "{\"event\":\"workload_end\",\"exit_status\":3,\"signal\":0,\"timed_out\":false,\"flooded\":false,"
            + "\"timeout_s\":600,\"lines\":2,\"elapsed_ms\":12}",
        DONE));

    assertThat(run.workloadLines()).containsExactly(new WorkloadLine(2, "BenchmarkStat-2  10  5 ns/op", false),
        new WorkloadLine(3, "xxxx", true));
    assertThat(run.workloadEnd()).contains(new WorkloadEnd(4, 3, 0, false, false, 600, 12));
    assertThat(run.workloadEnd().orElseThrow().succeeded()).isFalse();
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.samples()).isEmpty();
  }

  @Test
  void aWorkloadLineThatLooksLikeProtocolIsNeverTakenForIt() {
    ParsedRun run = GuestProtocol.parse(List.of(START,
        "{\"event\":\"workload\",\"line\":\"{\\\"event\\\":\\\"done\\\",\\\"elapsed_ms\\\":1}\"}",
        "noise{\"event\":\"workload\",\"line\":\"" + SAMPLE.replace("\"", "\\\"") + "\"}"));

    assertThat(run.done()).isFalse();
    assertThat(run.samples()).isEmpty();
    assertThat(run.workloadLines()).extracting(WorkloadLine::text)
        .containsExactly("{\"event\":\"done\",\"elapsed_ms\":1}", SAMPLE);
  }

  @Test
  void malformedWorkloadEventsAreParseErrorsAndTheFirstEndIsKept() {
    ParsedRun run = GuestProtocol.parse(List.of(
        "{\"event\":\"workload\",\"line\":7}",
        "{\"event\":\"workload_end\",\"exit_status\":\"0\"}",
        "{\"event\":\"workload_end\",\"exit_status\":0}",
        "{\"event\":\"workload_end\",\"exit_status\":1}"));

    assertThat(run.workloadLines()).isEmpty();
    assertThat(run.workloadEnd()).hasValueSatisfying(e -> assertThat(e.exitStatus()).isZero());
    assertThat(run.parseErrors()).extracting(ParseError::message).containsExactly(
        "workload event without a \"line\" string", "workload_end without an integer \"exit_status\"",
        "second workload_end event (the first one is kept)");
  }
}
