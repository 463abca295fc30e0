package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.verdict.Assessor;
import dev.abfleet.stats.verdict.BootSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each boot's host pressure, facts and interference in the reports, and one summary line per arm. */
class HostPressureReportTest {
  static final BootHost.Facts FACTS = new BootHost.Facts("QEMU emulator version 8.2.2", "6.8.0-45-generic",
      "AMD EPYC 7B13", "0xa0011d1", "on", "schedutil", "off", "madvise", 7_936, "0-1");

  static BootHost host(double cpuAvg10, boolean interfered) {
    return new BootHost(new BootHost.Pressure(true, cpuAvg10, 1_250_000, 0.5, 4_000, 0.0, 0, 9.25, 7, 15_800, 9_000, 14_000, 2),
        FACTS, interfered);
  }

  static BootRecord boot(String arm, int pair, BootHost host) {
    int order = arm.equals("base") ? 0 : 1;
    RunFacts facts = new RunFacts("qemu", "6.1.0", 1, order, 2500, 9000, 10, "", "", "", "", List.of(), List.of())
        .withHost(host);
    return new BootRecord("r" + pair + arm, arm, "h1", pair, BootRecord.fleetOrder(pair, order, false), BootRecord.OK,
        "kvm", "kvm", false, List.of(new BootSample("boot_ms", 100 + pair, "ms", "lower", false)), facts);
  }

  /** Three pairs; base's CPU pressure 0.4, 37.2, 1.0 (the middle one interfered), cand's none or as given. */
  static Report report(BootHost candHost) {
    double[] base = {0.4, 37.2, 1.0};
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      boots.add(boot("base", p, host(base[p], base[p] > 10)));
      boots.add(boot("cand", p, candHost));
    }
    Design d = new Design("e1", "base", List.of("cand"), "", List.of(), Set.of(), new Policy(0.02, 0.05), 1, null);
    return new Report(d, Assessor.assess(d.verdict(), boots), new Run("completed", 1, 3, 3, 0, 0, "", false, boots));
  }

  @Test
  void everyBootCarriesItsHostPressureFactsAndInterference() throws Exception {
    JsonNode boot = new ObjectMapper().readTree(JsonReport.render(report(null))).at("/boots/2");

    assertThat(boot.get("arm").asText()).isEqualTo("base");
    assertThat(boot.at("/host/pressure/cpu_some_avg10").asDouble()).isEqualTo(37.2);
    assertThat(boot.at("/host/pressure/cpu_some_total_us").asLong()).isEqualTo(1_250_000);
    assertThat(boot.at("/host/pressure/io_some_avg10").asDouble()).isEqualTo(0.5);
    assertThat(boot.at("/host/pressure/load_1m").asDouble()).isEqualTo(9.25);
    assertThat(boot.at("/host/pressure/runnable_tasks").asInt()).isEqualTo(7);
    assertThat(boot.at("/host/pressure/window_ms").asLong()).isEqualTo(9_000);
    assertThat(boot.at("/host/pressure/worker_cpu_ms").asLong()).isEqualTo(14_000);
    assertThat(boot.at("/host/pressure/other_cpu_ms").asLong()).isEqualTo(15_800 - 14_000);
    assertThat(boot.at("/host/pressure/host_cpus").asInt()).isEqualTo(2);
    assertThat(boot.at("/host/facts/microcode").asText()).isEqualTo("0xa0011d1");
    assertThat(boot.at("/host/facts/thp").asText()).isEqualTo("madvise");
    assertThat(boot.at("/host/facts/worker_cpus").asText()).isEqualTo("0-1");
    assertThat(boot.get("interfered").asBoolean()).isTrue();
  }

  @Test
  void bootsTheWorkerDidNotSampleHaveNoHostFields() throws Exception {
    JsonNode root = new ObjectMapper().readTree(JsonReport.render(report(null)));

    assertThat(root.at("/boots/1/arm").asText()).isEqualTo("cand");
    assertThat(root.at("/boots/1/host").has("pressure")).isFalse();
    assertThat(root.at("/boots/1/host").has("facts")).isFalse();
    assertThat(root.at("/boots/1/host/id").asText()).isEqualTo("h1");
    assertThat(root.at("/boots/1").has("interfered")).isFalse();
    assertThat(root.at("/host_pressure_by_arm/base/interfered").asInt()).isEqualTo(1);
    assertThat(root.at("/host_pressure_by_arm/base/other_cpu_pct_median").asDouble()).isEqualTo(10.0);
    assertThat(root.at("/host_pressure_by_arm").has("cand")).isFalse();
  }

  @Test
  void summarisesEachArmsCpuPressureAndInterferedBoots() {
    // base: median of {0.4, 37.2, 1.0} = 1.0, max 37.2, one boot above 10
    assertThat(HostSummary.lines(report(host(0.2, false))))
        .containsExactly("host: arm base: cpu pressure median 1.0% (max 37.2%), other processes median 10.0% of cpu, "
                + "1 of 3 boots interfered (0 re-run, 1 kept)",
            "host: arm cand: cpu pressure median 0.2% (max 0.2%), other processes median 10.0% of cpu, "
                + "0 of 3 boots interfered",
            "warning: arm base: 1 interfered boot kept in the verdict: the host was not quiet, so their"
                + " figures may reflect it rather than the kernel");
    assertThat(TextReport.render(report(null)))
        .contains("host: arm base: cpu pressure median 1.0% (max 37.2%), other processes median 10.0% of cpu, "
            + "1 of 3 boots interfered (0 re-run, 1 kept)\n")
        .doesNotContain("host: arm cand");
  }

  @Test
  void aHostFactThatChangedMidExperimentIsWarnedWithTheFirstBootThatSawIt() throws Exception {
    BootHost.Facts upgraded = new BootHost.Facts("QEMU emulator version 9.0.0", FACTS.hostKernel(),
        FACTS.cpuModel(), FACTS.microcode(), FACTS.smt(), FACTS.cpufreqGovernor(), FACTS.boost(), FACTS.thp(),
        FACTS.memoryMib(), "");
    List<BootRecord> boots = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      // pair 2 ran after a QEMU upgrade; worker_cpus unreadable there is no change
      BootHost h = new BootHost(host(1.0, false).pressure(), p == 2 ? upgraded : FACTS, false);
      boots.add(boot("base", p, h));
      boots.add(boot("cand", p, h));
    }
    Design d = new Design("e1", "base", List.of("cand"), "", List.of(), Set.of(), new Policy(0.02, 0.05), 1, null);
    Report r = new Report(d, Assessor.assess(d.verdict(), boots), new Run("completed", 1, 3, 3, 0, 0, "", false, boots));

    assertThat(HostFactChange.of(r)).containsExactly(new HostFactChange("h1", "hypervisor_version",
        "QEMU emulator version 8.2.2", "QEMU emulator version 9.0.0", "r2base"));
    assertThat(TextReport.render(r)).contains("warning: host h1: hypervisor_version changed during the experiment: "
        + "'QEMU emulator version 8.2.2' -> 'QEMU emulator version 9.0.0' from run r2base");
    JsonNode change = new ObjectMapper().readTree(JsonReport.render(r)).at("/host_fact_changes/0");
    assertThat(change.get("fact").asText()).isEqualTo("hypervisor_version");
    assertThat(change.get("first_run").asText()).isEqualTo("r2base");
    assertThat(HostFactChange.of(report(host(0.2, false)))).isEmpty();
    assertThat(new ObjectMapper().readTree(JsonReport.render(report(null))).has("host_fact_changes")).isFalse();
  }

  @Test
  void reportsWithoutHostPressureHaveNoHostLines() {
    Report r = report(null);
    List<BootRecord> unsampled = r.run().boots().stream().filter(b -> b.arm().equals("cand")).toList();
    Design d = r.design();
    Report none = new Report(d, Assessor.assess(d.verdict(), unsampled),
        new Run("completed", 1, 3, 3, 0, 0, "", false, unsampled));

    assertThat(HostSummary.lines(none)).isEmpty();
    assertThat(TextReport.render(none)).doesNotContain("host:");
    assertThat(HtmlReport.render(none)).doesNotContain("cpu pressure");
  }

  /** Report with two boots of pair 1 re-run for interference (base interfered) before the pair counted. */
  static Report withReruns(String policy) {
    Report r = report(host(0.2, false));
    List<BootRecord> boots = new ArrayList<>();
    for (String arm : List.of("base", "cand")) {
      BootRecord b = boot(arm, 1, arm.equals("base") ? host(55.0, true) : host(0.3, false));
      boots.add(new BootRecord("rerun-" + b.id(), b.arm(), b.host(), b.pair(), b.order(), b.status(),
          b.hostClass(), b.accelerator(), false, List.of(new BootSample("boot_ms", 900, "ms", "lower", false)),
          b.run().withRerun(true)));
    }
    boots.addAll(r.run().boots());
    Design d = r.design();
    return new Report(d, Assessor.assess(d.verdict(), boots),
        new Run("completed", 1, 3, 3, 1, 0, "", false, boots).withInterference(1, policy));
  }

  @Test
  void countsInterferedBootsReRunAndKeptWithTheReason() {
    assertThat(HostSummary.lines(withReruns("rerun"))).containsExactly(
        "host: arm base: cpu pressure median 19.1% (max 55.0%), other processes median 10.0% of cpu,"
            + " 2 of 4 boots interfered (1 re-run, 1 kept: re-run limit reached)",
        "host: arm cand: cpu pressure median 0.2% (max 0.3%), other processes median 10.0% of cpu,"
            + " 0 of 4 boots interfered",
        "warning: arm base: 1 interfered boot kept in the verdict (re-run limit reached): the host was"
            + " not quiet, so their figures may reflect it rather than the kernel");
    assertThat(HostSummary.lines(withReruns("keep")).get(0)).endsWith("(1 re-run, 1 kept: by policy)");
  }

  @Test
  void reRunBootsAreListedButNeverJudged() throws Exception {
    Report r = withReruns("rerun");
    JsonNode root = new ObjectMapper().readTree(JsonReport.render(r));

    assertThat(root.get("interfered_reruns").asInt()).isEqualTo(1);
    assertThat(root.at("/boots/0/rerun").asBoolean()).isTrue();
    assertThat(root.at("/boots/2").has("rerun")).isFalse();
    assertThat(root.at("/host_pressure_by_arm/base/interfered_rerun").asInt()).isEqualTo(1);
    assertThat(root.at("/host_pressure_by_arm/base/interfered_kept").asInt()).isEqualTo(1);
    // Boot times of 900 ms in the re-run boots would move the medians if they were judged.
    assertThat(r.assessment().rows()).allSatisfy(row -> assertThat(row.comparison().nPairs()).isEqualTo(3));
    assertThat(r.assessment().rows().get(0).comparison().baselineCenter()).isEqualTo(101.0);
  }

  @Test
  void aBootsWaitForAQuietHostIsInItsJson() throws Exception {
    BootHost waited = new BootHost(host(0.4, false).pressure(), FACTS, false, 12_000);
    JsonNode boot = new ObjectMapper().readTree(JsonReport.render(report(waited))).at("/boots/1");

    assertThat(boot.get("quiet_wait_ms").asLong()).isEqualTo(12_000);
  }
}
