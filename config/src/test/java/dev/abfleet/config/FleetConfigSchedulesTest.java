package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FleetConfigSchedulesTest {
  private static final String BENCH = "benchmarks:\n  fuse:\n    metrics: [metadata_stat, seq_read]\n";

  private static FleetConfig parse(String schedules) {
    return FleetConfigLoader.parse("f.yaml", BENCH + "schedules:\n" + schedules);
  }

  @Test
  void commentedExampleInFleetYamlIsValid() throws IOException {
    var lines = Files.readAllLines(Path.of("..", "fleet.yaml"));
    String head = lines.stream().takeWhile(l -> !l.equals("schedules: []")).collect(Collectors.joining("\n"));
    String example = lines.stream().dropWhile(l -> !l.startsWith("# - name: fuse-nightly"))
        .map(l -> l.substring(2)).collect(Collectors.joining("\n"));
    FleetConfig c = FleetConfigLoader.parse("f.yaml", head + "\nschedules:\n" + example + "\n");
    FleetConfig.Schedule s = c.schedule("fuse-nightly");
    assertThat(s.cron()).hasToString("30 2 * * *");
    assertThat(s.benchmark()).isEqualTo("fuse-metadata");
    assertThat(s.candidate()).isEqualTo(new FleetConfig.Candidate("newest_in", "/srv/kernels/nightly"));
    assertThat(s.baseline()).isEqualTo(new FleetConfig.Baseline("last_accepted", "/boot/vmlinuz-6.1.0-50-cloud-amd64"));
    assertThat(s.hosts()).isEqualTo(new FleetConfig.Hosts("qemu", "x86_64", Map.of("rack", "a")));
  }

  @Test
  void fullScheduleIsLoaded() {
    FleetConfig c = parse("  - name: n1\n    cron: \"*/15 * * * *\"\n    benchmark: fuse\n"
        + "    candidate: {path: /k/vmlinuz}\n    baseline: {pinned: /k/base}\n    pairs: 6\n"
        + "    hosts: {hypervisor: sim, labels: {pool: night}}\n");
    FleetConfig.Schedule s = c.schedules().get(0);
    assertThat(s.name()).isEqualTo("n1");
    assertThat(s.pairs()).isEqualTo(6);
    assertThat(s.line()).isEqualTo(5);
    assertThat(s.baseline()).isEqualTo(new FleetConfig.Baseline("pinned", "/k/base"));
    assertThat(s.hosts()).isEqualTo(new FleetConfig.Hosts("sim", "", Map.of("pool", "night")));
  }

  @Test
  void defaultsPairsFromPolicyAndHostsToQemu() {
    FleetConfig c = FleetConfigLoader.parse("f.yaml", "policy:\n  pairs: 12\nschedules:\n"
        + "  - {name: n, cron: '@daily', candidate: {newest_in: /k}, baseline: last_accepted}\n");
    FleetConfig.Schedule s = c.schedule("n");
    assertThat(s.pairs()).isEqualTo(12);
    assertThat(s.benchmark()).isNull();
    assertThat(s.hosts().hypervisor()).isEqualTo("qemu");
    assertThat(s.baseline()).isEqualTo(new FleetConfig.Baseline("last_accepted", ""));
  }

  @Test
  void badCronNamesItsLineAndTheForm() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: \"30 2 * *\"\n    candidate: {path: /k}\n"
        + "    baseline: last_accepted\n"))
        .hasMessage("f.yaml:6: cron '30 2 * *' has 4 fields; expected 5 fields: minute hour day-of-month"
            + " month day-of-week, e.g. \"30 2 * * *\" for 02:30 every day");
  }

  @Test
  void outOfRangeCronHourNamesTheField() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: \"0 24 * * *\"\n    candidate: {path: /k}\n"
        + "    baseline: last_accepted\n"))
        .hasMessageStartingWith("f.yaml:6: cron '0 24 * * *': hour '24' is not a value from 0 to 23");
  }

  @Test
  void unknownBenchmarkListsTheDefinedOnes() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    benchmark: fusee\n"
        + "    candidate: {path: /k}\n    baseline: last_accepted\n"))
        .hasMessage("f.yaml:7: schedules[0].benchmark is 'fusee'; expected one of fuse");
  }

  @Test
  void candidateNeedsExactlyOneSource() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n"
        + "    candidate: {path: /k, newest_in: /d}\n    baseline: last_accepted\n"))
        .hasMessageStartingWith("f.yaml:7: schedules[0].candidate needs exactly one of path");
  }

  @Test
  void unknownCandidateKeyIsRejected() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n"
        + "    candidate:\n      deb: linux-image\n    baseline: last_accepted\n"))
        .hasMessage("f.yaml:8: unknown key 'deb' under schedules[0].candidate; expected one of newest_in, path");
  }

  @Test
  void baselineWordMustBeLastAccepted() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n"
        + "    baseline: previous\n"))
        .hasMessageStartingWith("f.yaml:8: schedules[0].baseline is 'previous'; expected last_accepted");
  }

  @Test
  void missingRequiredKeyNamesTheSchedule() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n"))
        .hasMessageStartingWith("f.yaml:5: schedules[0] has no baseline");
  }

  @Test
  void duplicateNamesAreRejected() {
    String one = "  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted}\n";
    assertThatThrownBy(() -> parse(one + one))
        .hasMessageStartingWith("f.yaml:6: schedule name 'n' is used twice");
  }

  @Test
  void unknownHypervisorListsChoices() {
    assertThatThrownBy(() -> parse("  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted,"
        + " hosts: {hypervisor: kvm}}\n"))
        .hasMessage("f.yaml:5: schedules[0].hosts.hypervisor: unknown hypervisor 'kvm'; expected qemu, vz or sim");
  }

  @Test
  void hypervisorListAndClassByMakeACrossHostSchedule() {
    FleetConfig c = parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n    baseline: last_accepted\n"
        + "    hosts:\n      hypervisor: [qemu, vz]\n      class_by: [label:cpu, arch]\n");
    assertThat(c.schedule("n").hosts())
        .isEqualTo(new FleetConfig.Hosts(List.of("qemu", "vz"), "", Map.of(), List.of("label:cpu", "arch")));
  }

  @Test
  void singleHypervisorStaysOneValueWithoutClassBy() {
    FleetConfig c = parse("  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted,"
        + " hosts: {hypervisor: vz}}\n");
    assertThat(c.schedule("n").hosts().hypervisors()).containsExactly("vz");
    assertThat(c.schedule("n").hosts().classBy()).isEmpty();
  }

  @Test
  void unknownHypervisorInAListNamesItsLineAndIndex() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n"
        + "    baseline: last_accepted\n    hosts:\n      hypervisor:\n        - qemu\n        - kvm\n"))
        .hasMessage("f.yaml:12: schedules[0].hosts.hypervisor[1]: unknown hypervisor 'kvm'; expected qemu, vz or sim");
  }

  @Test
  void simMixedWithRealHypervisorsIsRejectedWithTheFix() {
    assertThatThrownBy(() -> parse("  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted,"
        + " hosts: {hypervisor: [qemu, sim]}}\n"))
        .hasMessage("f.yaml:5: schedules[0].hosts.hypervisor: sim cannot be mixed with real hypervisors"
            + " (sim boots are never compared with real boots); use sim alone");
  }

  @Test
  void duplicateHypervisorIsRejected() {
    assertThatThrownBy(() -> parse("  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted,"
        + " hosts: {hypervisor: [vz, vz]}}\n"))
        .hasMessage("f.yaml:5: schedules[0].hosts.hypervisor[1]: 'vz' is listed twice; list each hypervisor once");
  }

  @Test
  void unknownClassByDimensionNamesItsLineAndTheChoices() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n"
        + "    baseline: last_accepted\n    hosts:\n      class_by: [arch, cpu]\n"))
        .hasMessage("f.yaml:10: schedules[0].hosts.class_by[1]: unknown dimension 'cpu'; expected cpu_model,"
            + " arch, host_kernel, hypervisor_version (qemu_version) or label:KEY (e.g. label:cpu)");
  }

  @Test
  void classByLabelWithoutKeyIsRejected() {
    assertThatThrownBy(() -> parse("  - {name: n, cron: '@daily', candidate: {path: /k}, baseline: last_accepted,"
        + " hosts: {class_by: ['label:']}}\n"))
        .hasMessageStartingWith("f.yaml:5: schedules[0].hosts.class_by[0]: 'label:' does not name a label;");
  }

  @Test
  void classByGivenAsOneValueAsksForAList() {
    assertThatThrownBy(() -> parse("  - name: n\n    cron: '@daily'\n    candidate: {path: /k}\n"
        + "    baseline: last_accepted\n    hosts:\n      class_by: cpu_model\n"))
        .hasMessage("f.yaml:10: schedules[0].hosts.class_by must be a list, e.g. [label:cpu] or [cpu_model, arch]");
  }

  @Test
  void unknownScheduleNameListsTheDefinedOnes() {
    FleetConfig c = parse("  - {name: a, cron: '@daily', candidate: {path: /k}, baseline: last_accepted}\n");
    assertThatThrownBy(() -> c.schedule("b")).hasMessage("unknown schedule 'b'; fleet.yaml defines a");
  }
}
