package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.model.CounterRatio;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {
  static ExperimentSpec with(HostSelector selector, String priority) {
    ExperimentSpec s = Specs.ab(4, 1);
    return new ExperimentSpec(s.name(), s.arms(), s.benchmark(), selector, s.policy(), priority);
  }

  @Test
  void acceptsAFullSelector() {
    var selector = new HostSelector("qemu", "aarch64", Map.of("pool", "perf-1"), List.of("h1", "mac.local"));

    assertThat(SpecValidator.validate(with(selector, "nightly"))).isEmpty();
  }

  @Test
  void rejectsInvalidCounterRatiosNamingTheField() {
    ExperimentSpec s = Specs.ab(4, 1);
    BenchmarkSpec b = s.benchmark();
    var ratios = List.of(new CounterRatio("res_per_req", "RES", "virtio*-request*"),
        new CounterRatio("res_per_req", "RES", ""));
    ExperimentSpec bad = new ExperimentSpec(s.name(), s.arms(), new BenchmarkSpec(b.harness(),
        b.metrics(), b.iterations(), b.iterationMs(), b.warmupIterations(), b.volume(), b.files(),
        b.cache(), b.workload(), "", ratios), s.selector(), s.policy(), s.priority());

    assertThat(SpecValidator.validate(bad)).extracting(p -> p.substring(0, p.indexOf(';')))
        .containsExactly("benchmark.ratios[1].den: den is empty",
            "benchmark.ratios[1].name: two ratios are named 'res_per_req'");
  }

  @Test
  void rejectsAConsolePatternThatIsNotARegularExpressionWithItsIndex() {
    var problems = SpecValidator.validate(Specs.ab(4, 1).withConsolePatterns(List.of("WARNING:", "Oops[", " ")));

    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).startsWith("console_patterns[1]: 'Oops[' is not a valid regular expression");
    assertThat(problems.get(1)).startsWith("console_patterns[2]: empty");
  }

  @Test
  void rejectsAnUnknownArchNamingTheValueAndTheChoices() {
    var problems = SpecValidator.validate(with(new HostSelector("", "arm64", Map.of(), List.of()), "pr"));

    assertThat(problems).containsExactly(
        "selector.arch: unknown architecture 'arm64'; expected x86_64 or aarch64 (empty = any)");
  }

  @Test
  void rejectsAMalformedHostIdWithItsIndex() {
    var problems = SpecValidator.validate(
        with(new HostSelector("", "", Map.of(), List.of("h1", "bad host")), "pr"));

    assertThat(problems).singleElement().asString()
        .startsWith("selector.hosts[1]: 'bad host' is not a valid host id");
  }

  @Test
  void rejectsAHostListedTwice() {
    var problems = SpecValidator.validate(
        with(new HostSelector("", "", Map.of(), List.of("h1", "h1")), "pr"));

    assertThat(problems).containsExactly("selector.hosts[1]: 'h1' is listed twice; list each host once");
  }

  @Test
  void rejectsALabelWithSpaces() {
    var problems = SpecValidator.validate(
        with(new HostSelector("", "", Map.of("pool", "a b"), List.of()), "pr"));

    assertThat(problems).singleElement().asString().startsWith("selector.labels: 'pool=a b'");
  }

  @Test
  void rejectsAnUnknownPriorityListingTheOrder() {
    var problems = SpecValidator.validate(with(HostSelector.any(), "urgent"));

    assertThat(problems).containsExactly(
        "priority: unknown priority 'urgent'; expected one of pr, adhoc, nightly (highest first; empty = adhoc)");
  }

  private static ExperimentSpec withLoad(dev.abfleet.controller.plan.BenchmarkSpec.Load load) {
    ExperimentSpec s = Specs.ab(4, 1);
    var b = s.benchmark();
    var bench = new dev.abfleet.controller.plan.BenchmarkSpec(b.harness(), b.metrics(), b.iterations(),
        b.iterationMs(), b.warmupIterations(), b.volume(), b.files(), b.cache(), b.workload(), load);
    return new ExperimentSpec(s.name(), s.arms(), bench, s.selector(), s.policy(), s.priority());
  }

  @Test
  void acceptsThreadsAndSizesWithinTheHarnessesRanges() {
    assertThat(SpecValidator.validate(withLoad(new dev.abfleet.controller.plan.BenchmarkSpec.Load(256, 4096,
        16 * 1024 * 1024)))).isEmpty();
  }

  @Test
  void rejectsThreadsAndSizesBeyondTheHarnessNamingEachValue() {
    var problems = SpecValidator.validate(withLoad(new dev.abfleet.controller.plan.BenchmarkSpec.Load(257, -1,
        16 * 1024 * 1024 + 1)));

    assertThat(problems).containsExactly(
        "benchmark.threads: 257 must be in 0..256 (0 = one per guest vCPU)",
        "benchmark.seq_size_mib: 4294967295 must be in 0..4096 (0 = 16 MiB)",
        "benchmark.file_size: 16777217 bytes must be in 0..16777216 (0 = empty files)");
  }

  static ExperimentSpec withQuiet(HostQuiet quiet) {
    ExperimentSpec s = Specs.ab(4, 1);
    return new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        s.policy().withHostQuiet(quiet), s.priority());
  }

  @Test
  void acceptsTheQuietHostPolicyAndItsDefaults() {
    assertThat(SpecValidator.validate(withQuiet(new HostQuiet(5, 120, "keep", 3)))).isEmpty();
    assertThat(SpecValidator.validate(withQuiet(new HostQuiet(0, 0, "", 0)))).isEmpty();
  }

  @Test
  void rejectsBadQuietHostValuesNamingTheKey() {
    assertThat(SpecValidator.validate(withQuiet(new HostQuiet(150, -1, "retry", 99))))
        .containsExactlyInAnyOrder(
            "policy.host_quiet.cpu_some_pct: 150.0 must be a percent in (0, 100], e.g. 10",
            "policy.host_quiet.on_interference: unknown value 'retry'; expected rerun (re-run the pair)"
                + " or keep (pool it with a warning)",
            "policy.host_quiet.max_wait_s: -1 must be seconds in [1, 3600], e.g. 60",
            "policy.host_quiet.max_reruns_per_pair: 99 must be in [1, 20], e.g. 2");
  }
}
