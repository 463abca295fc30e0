package dev.abfleet.controller.experiment;

/**
 * One kernel variant of an experiment.
 *
 * @param initrd null = the worker's built-in harness initramfs
 * @param vcpus 0 = driver default
 * @param memoryMib 0 = driver default
 */
public record ArmSpec(
    String name,
    Role role,
    ArtifactRef kernel,
    ArtifactRef initrd,
    String cmdlineExtra,
    int vcpus,
    int memoryMib) {

  /** What an arm is compared against: one baseline, one or more candidates. */
  public enum Role {
    BASELINE,
    CANDIDATE
  }

  public ArmSpec {
    cmdlineExtra = cmdlineExtra == null ? "" : cmdlineExtra;
  }
}
