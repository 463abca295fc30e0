package dev.abfleet.cli;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.SpecFile;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One arm of an {@code abfleet ab} experiment, from the command line or a spec file, with its
 * VM shape settled.
 *
 * @param role baseline, candidate or ceiling
 * @param kernel the kernel image; null while a kernel to build from source ({@code build}) is not built
 * @param origin where the arm was given, for messages: "--candidate" or "spec.yaml:9: arm"
 * @param build how to build the kernel from source; null = {@code kernel} was given
 * @param built where the built kernel came from, once built; null for a given kernel
 * @param volume the arm's host-volume transport and daemon cache mode; unset fields = the benchmark's
 */
record AbArm(String name, String role, Path kernel, String cmdlineExtra, List<String> modules, String modulesDir,
    String volumeOptions, int vcpus, int memoryMib, boolean pinVcpus, String origin, SpecFile.Build build,
    KernelBuild built, SpecFile.Volume volume) {

  AbArm {
    modules = List.copyOf(modules);
    volume = volume == null ? SpecFile.Volume.UNSET : volume;
  }

  /** An arm whose volume, if any, is the benchmark's. */
  AbArm(String name, String role, Path kernel, String cmdlineExtra, List<String> modules, String modulesDir,
      String volumeOptions, int vcpus, int memoryMib, boolean pinVcpus, String origin, SpecFile.Build build,
      KernelBuild built) {
    this(name, role, kernel, cmdlineExtra, modules, modulesDir, volumeOptions, vcpus, memoryMib, pinVcpus, origin,
        build, built, SpecFile.Volume.UNSET);
  }

  /** An arm whose kernel is an image the user gave. */
  AbArm(String name, String role, Path kernel, String cmdlineExtra, List<String> modules, String modulesDir,
      String volumeOptions, int vcpus, int memoryMib, boolean pinVcpus, String origin) {
    this(name, role, kernel, cmdlineExtra, modules, modulesDir, volumeOptions, vcpus, memoryMib, pinVcpus, origin,
        null, null);
  }

  /** True while the arm's kernel still has to be built from source. */
  boolean unbuilt() {
    return kernel == null && build != null;
  }

  /** This arm with the kernel built from its {@code build}: {@code image} and where it came from. */
  AbArm builtAs(Path image, KernelBuild provenance) {
    return new AbArm(name, role, image, cmdlineExtra, modules, modulesDir, volumeOptions, vcpus, memoryMib, pinVcpus,
        origin, build, provenance, volume);
  }

  /** This arm with its module tree at {@code dir}. */
  AbArm withModulesDir(String dir) {
    return new AbArm(name, role, kernel, cmdlineExtra, modules, dir, volumeOptions, vcpus, memoryMib, pinVcpus,
        origin, build, built, volume);
  }

  /**
   * What the command line overrides in every arm's VM shape.
   *
   * @param vcpus --vcpus, null = not given
   * @param pin --pin: pin every arm
   */
  record VmFlags(Integer vcpus, boolean pin) {
    static final VmFlags NONE = new VmFlags(null, false);

    SpecFile.Vm over(SpecFile.Vm shape) {
      return new SpecFile.Vm(vcpus != null ? vcpus : shape.vcpus(), shape.memoryMib(),
          pin ? Boolean.TRUE : shape.pinVcpus());
    }
  }

  /** Arms given as --baseline, --candidate and --ceiling, shaped by fleet.yaml's vm and the flags. */
  static List<AbArm> fromFlags(ArmArg baseline, List<ArmArg> candidates, ArmArg ceiling, FleetConfig.Vm defaults,
      VmFlags flags) {
    SpecFile.Vm shape = flags.over(SpecFile.Vm.UNSET).over(vm(defaults));
    List<AbArm> arms = new ArrayList<>();
    arms.add(fromFlag(baseline, "baseline", "--baseline", shape));
    candidates.forEach(c -> arms.add(fromFlag(c, "candidate", "--candidate", shape)));
    if (ceiling != null) {
      arms.add(fromFlag(ceiling, "ceiling", "--ceiling", shape));
    }
    return List.copyOf(arms);
  }

  /**
   * Arms of a spec file. Each field of an arm's VM shape comes from, first to last: the
   * command line (--vcpus, --pin), the arm's vm, the file's vm, fleet.yaml's vm. The daemon
   * cache mode comes from the arm's volume, then the file's; the transport named by the arm
   * alone (the file's goes to the benchmark).
   */
  static List<AbArm> fromSpec(SpecFile spec, FleetConfig.Vm defaults, VmFlags flags) {
    return spec.arms().stream().map(a -> {
      SpecFile.Vm shape = flags.over(a.vm()).over(spec.vm()).over(vm(defaults));
      return new AbArm(a.name(), a.role(), a.kernel(), a.cmdline(), a.modules(), a.modulesDir(), a.volumeOptions(),
          shape.vcpus(), shape.memoryMib(), shape.pinVcpus(), a.where() + ": arm", a.build(), null,
          new SpecFile.Volume(a.volume().transport(), a.volume().over(spec.volume()).cache()));
    }).toList();
  }

  private static AbArm fromFlag(ArmArg a, String role, String option, SpecFile.Vm shape) {
    return new AbArm(a.name(), role, a.kernel(), a.cmdlineExtra(), List.of(), "", "", shape.vcpus(),
        shape.memoryMib(), shape.pinVcpus(), option);
  }

  private static SpecFile.Vm vm(FleetConfig.Vm v) {
    return new SpecFile.Vm(v.vcpus(), v.memoryMib(), v.pinVcpus());
  }
}
