package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.model.NightlySchedule;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** fleet.yaml's schedules as the controller gets them: the experiment every run submits. */
class NightlySchedulesTest {
  private static NightlySchedule only(String yaml) {
    FleetConfig cfg = FleetConfigLoader.parse("f.yaml", yaml);
    return NightlySchedules.of(cfg, ZoneId.of("Europe/Berlin")).get(0);
  }

  @Test
  void templateIsANightlyExperimentOfTheSchedule() {
    NightlySchedule s = only("schedules:\n  - name: night\n    cron: '*/30 * * * *'\n"
        + "    candidate: {newest_in: builds}\n    baseline: {last_accepted: stock-vmlinuz}\n    pairs: 6\n"
        + "    hosts: {hypervisor: sim, labels: {pool: n}}\n");
    ExperimentSpec spec = s.template();
    assertThat(spec.getPriority()).isEqualTo("nightly");
    assertThat(spec.getPolicy().getPairs()).isEqualTo(6);
    assertThat(spec.getSelector().getHypervisor()).isEqualTo("sim");
    assertThat(spec.getSelector().getLabelsMap()).containsEntry("pool", "n");
    assertThat(spec.getArmsList()).extracting(a -> a.getName() + "/" + a.getRole())
        .containsExactly("baseline/baseline", "candidate/candidate");
    assertThat(spec.getArms(0).getBoot().hasKernel()).as("kernels are the controller's to fill in").isFalse();
    assertThat(s.simulation()).isTrue();
    assertThat(s.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(s.candidate()).isEqualTo(new NightlySchedule.Source("newest_in", "builds"));
    assertThat(s.baseline()).isEqualTo(new NightlySchedule.Baseline("last_accepted", "stock-vmlinuz"));
    assertThat(s.line()).isEqualTo(2);
  }

  @Test
  void crossHostScheduleSubmitsItsHypervisorsAndClassBy() {
    ExperimentSpec spec = only("schedules:\n  - name: night\n    cron: '@daily'\n"
        + "    candidate: {newest_in: builds}\n    baseline: {pinned: stock-vmlinuz}\n"
        + "    hosts: {hypervisor: [qemu, vz], class_by: [label:cpu]}\n").template();
    assertThat(spec.getSelector().getHypervisorsList()).containsExactly("qemu", "vz");
    assertThat(spec.getSelector().getHypervisor()).isEmpty();
    assertThat(spec.getPolicy().getClassByList()).containsExactly("label:cpu");
  }

  @Test
  void anAaScheduleComparesItsKernelWithItself() {
    NightlySchedule s = only("schedules:\n  - name: noise\n    kind: aa\n    cron: '0 4 * * *'\n"
        + "    kernel: {path: vmlinuz}\n    pairs: 2\n");
    assertThat(s.aa()).isTrue();
    assertThat(s.baseline()).isEqualTo(NightlySchedule.Baseline.SAME_KERNEL);
    assertThat(s.candidate()).isEqualTo(new NightlySchedule.Source("path", "vmlinuz"));
    assertThat(s.simulation()).isFalse();
  }
}
