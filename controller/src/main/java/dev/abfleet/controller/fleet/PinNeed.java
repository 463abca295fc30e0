package dev.abfleet.controller.fleet;

/**
 * What pinned vCPUs ask of a host: each vCPU thread gets a host CPU of its own, so a host needs
 * at least as many CPUs as the pinned arm with the most vCPUs has.
 *
 * @param arm the pinned arm with the most vCPUs (named in messages); empty = no arm is pinned
 * @param vcpus its vCPUs; 0 = no arm is pinned
 */
public record PinNeed(String arm, int vcpus) {
  public static final PinNeed NONE = new PinNeed("", 0);

  public PinNeed {
    arm = arm == null ? "" : arm;
  }

  /** True when the host has a CPU for every pinned vCPU. */
  public boolean fits(HostCapabilities host) {
    return host.cpus() >= vcpus;
  }

  /** "arm pinned needs 4 CPUs to pin 4 vCPUs". */
  public String describe() {
    return "arm " + arm + " needs " + vcpus + " CPUs to pin " + vcpus + " vCPUs";
  }
}
