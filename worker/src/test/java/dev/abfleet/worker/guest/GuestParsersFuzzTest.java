package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Fuzz;
import dev.abfleet.testkit.Gen;
import dev.abfleet.testkit.HostileInputs;
import dev.abfleet.worker.link.ControllerTargets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seeded property-based fuzzing of what a guest writes and what a workload prints: the guest
 * protocol, both workload output formats, Go benchmark lines, and the controller address list
 * the worker is given. Any input gives a value; no sample is ever non-finite; errors are one
 * line, at most the kept number, and quoted rather than copied; bounded time.
 */
class GuestParsersFuzzTest {
  private static final long MAX_NANOS = 2_000_000_000L;

  private static Gen<String> protocolish() {
    Gen<String> token = Gen.oneOf(
        Gen.of("{", "}", "[", "]", ":", ",", "\"", "\n", "\r", " ", "\\", "\\u001b", "\u0000", "\uFFFD"),
        Gen.of("\"event\"", "\"metric\"", "\"value\"", "\"unit\"", "\"better\"", "\"iteration\"",
            "\"warmup\"", "\"start\"", "\"done\"", "\"workload\"", "\"workload_end\"", "\"telemetry\"", "\"line\"",
            "\"exit_status\"", "\"elapsed_ms\"", "\"interrupts\"", "\"work\"", "\"higher\"", "\"lower\"", "\"cut\""),
        Gen.of("1.5", "-0", "NaN", "Infinity", "-Infinity", "1e999", "-1", "1e20", "true", "null",
            "99999999999999999999", "2147483648"));
    return Gen.tokens(token, 80);
  }

  @Test
  void resultsChannelGivesAParsedRun() {
    Fuzz.check("resultsChannelGivesAParsedRun", 20261213, 1500, protocolish(),
        text -> checked(GuestProtocol.parse(text.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void anyBytesGiveAParsedRun() {
    Fuzz.check("anyBytesGiveAParsedRun", 20261214, 600, Gen.bytes(255), bytes -> checked(GuestProtocol.parse(bytes)));
  }

  /** Workload output, and whether it is read as Go benchmark output (else as JSON lines). */
  private record Output(String text, boolean goBench) {}

  @Test
  void workloadOutputGivesSamplesOrBadLines() {
    Gen<Output> outputs = r -> new Output(protocolish().next(r), r.nextBoolean());
    Fuzz.check("workloadOutputGivesSamplesOrBadLines", 20261215, 1000, outputs,
        o -> workloadOutputGivesSamplesOrBadLines(o.text(), o.goBench()));
  }

  private static void workloadOutputGivesSamplesOrBadLines(String text, boolean goBench) {
    long start = System.nanoTime();
    List<WorkloadLine> lines = new ArrayList<>();
    int n = 0;
    for (String line : text.split("\n", -1)) {
      lines.add(new WorkloadLine(++n, line, n % 7 == 0));
    }
    WorkloadOutput.Parsed out = WorkloadOutput.parse(goBench ? WorkloadOutput.Format.GOBENCH
        : WorkloadOutput.Format.JSONL, lines);
    out.samples().forEach(s -> assertThat(s.value()).isFinite());
    assertThat(out.errors().size()).isLessThanOrEqualTo(20);
    out.firstBad().ifPresent(b -> oneLine(b.describe()));
    assertThat(System.nanoTime() - start).isLessThan(MAX_NANOS);
  }

  @Test
  void goBenchmarkLineIsALine() {
    Fuzz.check("goBenchmarkLineIsALine", 20261216, 1000, benchish(), text -> {
      GoBenchLine.Line line = GoBenchLine.parse(text);
      line.measurements().forEach(m -> assertThat(m.value()).isFinite());
      if (line.error() != null) {
        oneLine(line.error());
      }
    });
  }

  private static Gen<String> benchish() {
    return Gen.tokens(Gen.of("Benchmark", "X-8", " ", "\t", "100", "-5", "1.5", "NaN", "+Inf", "Infinity", "1e999",
        "ns/op", "MB/s", "\u0000", "\u00e9", "9223372036854775808"), 20);
  }

  @Test
  void controllerAddressesAreParsedOrRefusedWithTheForm() {
    Fuzz.check("controllerAddressesAreParsedOrRefusedWithTheForm", 20261217, 1000, addresses(), text -> {
      try {
        assertThat(ControllerTargets.parse(text)).isNotEmpty()
            .allSatisfy(hp -> assertThat(hp.port()).isBetween(1, 65_535));
      } catch (IllegalArgumentException e) {
        oneLine(e.getMessage());
        assertThat(e.getMessage()).contains("expected HOST:PORT");
      }
    });
  }

  private static Gen<String> addresses() {
    return Gen.oneOf(Gen.strings(40),
        Gen.tokens(Gen.of("127.0.0.1", "[::1]", "[", "]", "host", ":", "7070", "0", "65536", "99999", ",", "\n", " ",
            "\r", "a-b.c"), 10));
  }

  private static void checked(ParsedRun run) {
    run.samples().forEach(s -> assertThat(s.value()).isFinite());
    assertThat(run.parseErrors().size()).isLessThanOrEqualTo(GuestProtocol.MAX_PARSE_ERRORS);
    run.parseErrors().forEach(e -> {
      oneLine(e.message());
      assertThat(e.message().length()).as("quoted, not copied").isLessThan(400);
    });
  }

  private static void oneLine(String message) {
    assertThat(message).isNotBlank();
    assertThat(message.lines().count()).as(message).isEqualTo(1);
    assertThat(HostileInputs.leaksInternals(message)).as(message).isFalse();
  }
}
