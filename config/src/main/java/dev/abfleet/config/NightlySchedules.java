package dev.abfleet.config;

import dev.abfleet.model.NightlySchedule;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.VmShape;
import java.time.ZoneId;
import java.util.List;

/** fleet.yaml's {@code schedules:} as the controller runs them. */
public final class NightlySchedules {
  static final String BASELINE_ARM = "baseline";
  static final String CANDIDATE_ARM = "candidate";

  private NightlySchedules() {}

  /** Every schedule of {@code config}, its cron read in {@code zone}. */
  public static List<NightlySchedule> of(FleetConfig config, ZoneId zone) {
    return config.schedules().stream().map(s -> of(config, s, zone)).toList();
  }

  static NightlySchedule of(FleetConfig config, FleetConfig.Schedule s, ZoneId zone) {
    NightlySchedule.Baseline baseline = s.aa() ? NightlySchedule.Baseline.SAME_KERNEL
        : new NightlySchedule.Baseline(s.baseline().kind(), s.baseline().path());
    return new NightlySchedule(s.name(), s.cron(), zone,
        new NightlySchedule.Source(s.candidate().kind(), s.candidate().location()), baseline, s.aa(),
        simulated(s), template(config, s), s.line(), s.minChange());
  }

  /** Said of every schedule on sim hosts: no result of sim is a measurement. */
  public static final String SIMULATION = "SIMULATION: runs on sim hosts; its verdicts come from the sim performance"
      + " model, no kernel is booted";

  /** True for a schedule on sim hosts. */
  public static boolean simulated(FleetConfig.Schedule s) {
    return s.hosts().hypervisor().equals("sim");
  }

  /** The experiment of every run of {@code s}, kernels left empty (the controller fills them in). */
  static ExperimentSpec template(FleetConfig config, FleetConfig.Schedule s) {
    FleetConfig.Benchmark b = config.benchmark(s.benchmark());
    FleetConfig.Policy p = config.policy();
    HostSelector.Builder selector = HostSelector.newBuilder()
        .setArch(s.hosts().arch()).putAllLabels(s.hosts().labels());
    if (s.hosts().hypervisors().size() == 1) {
      selector.setHypervisor(s.hosts().hypervisor());
    } else {
      selector.addAllHypervisors(s.hosts().hypervisors());
    }
    return ExperimentSpec.newBuilder()
        .setName(s.name())
        .addArms(arm(config, BASELINE_ARM, "baseline"))
        .addArms(arm(config, CANDIDATE_ARM, "candidate"))
        .setBenchmark(b.toProto(b.metrics(), b.iterations()))
        .setSelector(selector)
        .setPolicy(Policy.newBuilder().setNoiseThreshold(p.noiseThreshold()).setAlpha(p.alpha())
            .setPairs(s.pairs()).setBootTimeoutS(p.bootTimeoutS()).addAllGatingMetrics(b.gating())
            .setWarmupBoot(p.warmupBoot()).addAllClassBy(s.hosts().classBy())
            .setFutilityEffect(p.futilityEffect()).setFutilityBeta(p.futilityBeta()))
        .setPriority("nightly")
        .build();
  }

  private static Arm arm(FleetConfig config, String name, String role) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder()
            .setShape(VmShape.newBuilder().setVcpus(config.vm().vcpus()).setMemoryMib(config.vm().memoryMib())))
        .build();
  }
}
