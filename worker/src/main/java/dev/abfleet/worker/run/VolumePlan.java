package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.worker.guest.HarnessParams;
import dev.abfleet.worker.vm.VolumeTransport;
import java.util.List;
import java.util.Optional;

/**
 * Where a boot's benchmark runs: on the guest's tmpfs ({@code volume: guest}, no plan) or on a
 * host volume over the transport asked for (the arm's, else the benchmark's; "auto" = the first
 * the hypervisor offers here), with the full mount options the guest will use. Pure.
 *
 * @param transport the transport
 * @param options the guest's mount options: the transport's defaults with the arm's
 *     volume_options applied
 * @param cache virtio-fs: the daemon's cache mode; empty otherwise or for the default
 */
record VolumePlan(VolumeTransport transport, String options, String cache) {

  /** What asks for the daemon's default, or for the host's preferred transport. */
  static final String AUTO = "auto";


  /**
   * A plan, no plan (guest volume, plan null), or why the boot cannot run (problem, of that
   * failure kind; plan null).
   */
  record Decision(VolumePlan plan, FailureKind kind, Optional<String> problem) {
    static Decision guest() {
      return new Decision(null, null, Optional.empty());
    }

    static Decision of(VolumePlan plan) {
      return new Decision(plan, null, Optional.empty());
    }

    static Decision refused(FailureKind kind, String problem) {
      return new Decision(null, kind, Optional.of(problem));
    }
  }

  /**
   * @param volume the benchmark's volume: "", "guest" or "host"
   * @param requested the transport asked for: "virtiofs", "9p", or "" / "auto" for the first offered
   * @param offered the hypervisor's transports here, preferred first
   * @param volumeOptions the arm's extra mount options
   * @param cache virtio-fs: the daemon's cache mode ("", "auto", "always", "none")
   */
  static Decision decide(String volume, String requested, List<String> offered, String volumeOptions, String cache,
      String hypervisor, String hostId) {
    if (volume.isEmpty() || volume.equals("guest")) {
      return Decision.guest();
    }
    if (!volume.equals("host")) {
      return Decision.refused(FailureKind.CONFIG, "unknown benchmark volume '" + volume + "'; expected guest or host");
    }
    Optional<VolumeTransport> transport;
    if (requested.isEmpty() || requested.equals(AUTO)) {
      transport = offered.stream().map(VolumeTransport::fromWire).flatMap(Optional::stream).findFirst();
      if (transport.isEmpty()) {
        return Decision.refused(FailureKind.INFRA, "volume host: hypervisor " + hypervisor + " on host " + hostId
            + " offers no volume transport (see the worker log for why)");
      }
    } else {
      transport = VolumeTransport.fromWire(requested);
      if (transport.isEmpty()) {
        return Decision.refused(FailureKind.CONFIG, "unknown volume transport '" + requested
            + "'; expected virtiofs, 9p or auto");
      }
      if (!offered.contains(requested)) {
        return Decision.refused(FailureKind.INFRA, "volume transport " + requested + ": hypervisor " + hypervisor
            + " on host " + hostId + " does not offer it (it offers " + (offered.isEmpty() ? "none" : String.join(", ", offered))
            + "; the worker log says why); use transport: auto, or a host that has it");
      }
    }
    String c = cache == null ? "" : cache;
    if (!c.isEmpty() && transport.get() != VolumeTransport.VIRTIOFS) {
      return Decision.refused(FailureKind.CONFIG, "volume cache '" + c + "' is a virtio-fs daemon setting; this boot's"
          + " transport is " + transport.get().wire() + " (for 9p, set cache= in volume_options)");
    }
    if (!c.isEmpty() && hypervisor.equals("vz")) {
      return Decision.refused(FailureKind.CONFIG, "volume cache '" + c + "': VZ serves virtio-fs itself and has no"
          + " cache modes; drop cache for vz arms");
    }
    try {
      return Decision.of(new VolumePlan(transport.get(), transport.get().mountOptions(volumeOptions), c));
    } catch (IllegalArgumentException e) {
      return Decision.refused(FailureKind.CONFIG, e.getMessage());
    }
  }

  /** How /init mounts it. */
  HarnessParams.Volume guestVolume() {
    return new HarnessParams.Volume(transport.fsType(), VolumeTransport.TAG, options);
  }
}
