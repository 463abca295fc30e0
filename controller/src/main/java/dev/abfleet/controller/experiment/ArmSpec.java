package dev.abfleet.controller.experiment;

import dev.abfleet.model.ArmBuild;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.GuestSetup;

/**
 * One kernel variant of an experiment.
 *
 * @param initrd null = the worker's built-in harness initramfs
 * @param vcpus 0 = driver default
 * @param memoryMib 0 = driver default
 * @param guest pinning, modules and volume options; {@link GuestSetup#NONE} = none
 * @param build where abfleet built the kernel from; null = a kernel image the user gave. Left
 *     out of the journal when null, so arms without a build persist as they did before builds
 *     (and events written before builds read back with null)
 */
public record ArmSpec(
    String name,
    Role role,
    ArtifactRef kernel,
    ArtifactRef initrd,
    String cmdlineExtra,
    int vcpus,
    int memoryMib,
    GuestSetup guest,
    @JsonInclude(JsonInclude.Include.NON_NULL) ArmBuild build) {

  /**
   * One baseline, one or more candidates, at most one ceiling: the best achievable
   * configuration (e.g. hard-pinned), compared with the baseline like a candidate but never
   * gating, so that each candidate can be reported as a fraction of the ceiling.
   */
  public enum Role {
    BASELINE,
    CANDIDATE,
    CEILING
  }

  public ArmSpec {
    cmdlineExtra = cmdlineExtra == null ? "" : cmdlineExtra;
    guest = guest == null ? GuestSetup.NONE : guest;
  }

  /** An arm whose kernel abfleet did not build. */
  public ArmSpec(String name, Role role, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, GuestSetup guest) {
    this(name, role, kernel, initrd, cmdlineExtra, vcpus, memoryMib, guest, null);
  }

  /** An arm with no pinning, extra modules or volume options. */
  public ArmSpec(String name, Role role, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib) {
    this(name, role, kernel, initrd, cmdlineExtra, vcpus, memoryMib, GuestSetup.NONE);
  }
}
