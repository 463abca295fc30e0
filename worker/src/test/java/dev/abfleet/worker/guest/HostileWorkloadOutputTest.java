package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.HostileInputs;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a hostile workload prints: each bad line gives no sample and a first bad line whose
 * description names the problem and the fix on one line.
 */
class HostileWorkloadOutputTest {
  private static final String GOOD = "{\"metric\":\"ops\",\"value\":1.5,\"unit\":\"ops/s\",\"better\":\"higher\"}";

  record Case(String name, WorkloadOutput.Format format, List<WorkloadLine> lines, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static WorkloadLine line(String text) {
    return new WorkloadLine(1, text, false);
  }

  private static Case jsonl(String name, String bad, String problem, String fix) {
    return new Case(name, WorkloadOutput.Format.JSONL, List.of(line(bad)), problem, fix);
  }

  static List<Case> cases() {
    return List.of(
        jsonl("NaN value", GOOD.replace("1.5", "NaN"), "non-finite value NaN", "stdout line 1"),
        jsonl("Infinity value", GOOD.replace("1.5", "Infinity"), "non-finite value Infinity", "stdout line 1"),
        jsonl("not JSON", "oops \u001b[31mred", "not a JSON object", "expected {\"metric\":\"x\""),
        jsonl("value as a string", GOOD.replace("1.5", "\"1.5\""), "\"value\" must be a number", "must be a number"),
        jsonl("unknown better", GOOD.replace("higher", "up"), "\"better\" must be", "\"higher\" or \"lower\""),
        jsonl("metric name of 10,000 characters", GOOD.replace("ops\"", "o".repeat(10_000) + "\""), "metric name 'ooo",
            "use 1 to 128 of letters, digits"),
        new Case("line cut by the guest", WorkloadOutput.Format.JSONL, List.of(new WorkloadLine(1, GOOD, true)),
            "cut", "longer than fleetbench forwards (4096 bytes)"),
        new Case("metric changing its unit", WorkloadOutput.Format.JSONL, List.of(line(GOOD),
            line(GOOD.replace("ops/s", "ms").replace("higher", "lower"))), "metric ops was first reported in ops/s",
            "a metric keeps one unit and direction"),
        new Case("gobench Inf", WorkloadOutput.Format.GOBENCH, List.of(line("BenchmarkX-8 100 +Inf ns/op")),
            "value '+Inf' is not a number", "expected 'BenchmarkName N value unit"),
        new Case("gobench count not a number", WorkloadOutput.Format.GOBENCH, List.of(line("BenchmarkX-8 lots 5 ns/op")),
            "iteration count 'lots' is not a whole number", "expected 'BenchmarkName N value unit"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badWorkloadLineGivesNoSampleAndADescription(Case c) {
    WorkloadOutput.Parsed out = WorkloadOutput.parse(c.format(), c.lines());

    assertThat(out.samples()).hasSize(c.lines().size() - 1);
    assertThat(out.firstBad()).isPresent();
    String described = out.firstBad().get().describe();
    assertThat(described).contains(c.problem()).contains(c.fix());
    assertThat(described.lines().count()).as(described).isEqualTo(1);
    assertThat(described.length()).isLessThan(WorkloadOutput.MAX_QUOTE + 300);
    assertThat(HostileInputs.leaksInternals(described)).as(described).isFalse();
  }
}
