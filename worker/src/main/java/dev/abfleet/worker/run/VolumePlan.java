package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.worker.guest.HarnessParams;
import dev.abfleet.worker.vm.VolumeTransport;
import java.util.List;
import java.util.Optional;

/**
 * Where a boot's benchmark runs: on the guest's tmpfs ({@code volume: guest}, no plan) or on a
 * host volume over the first transport the hypervisor offers here, with the full mount options
 * the guest will use. Pure.
 *
 * @param transport the transport
 * @param options the guest's mount options: the transport's defaults with the arm's
 *     volume_options applied
 */
record VolumePlan(VolumeTransport transport, String options) {

  /** A plan, no plan (guest volume), or why the boot cannot run: exactly one of plan and problem is set, or neither. */
  record Decision(VolumePlan plan, FailureKind kind, String problem) {
    static Decision guest() {
      return new Decision(null, null, null);
    }

    boolean failed() {
      return problem != null;
    }
  }

  /**
   * @param volume the benchmark's volume: "", "guest" or "host"
   * @param offered the hypervisor's transports here, preferred first
   * @param volumeOptions the arm's extra mount options
   */
  static Decision decide(String volume, List<String> offered, String volumeOptions, String hypervisor, String hostId) {
    if (volume.isEmpty() || volume.equals("guest")) {
      return Decision.guest();
    }
    if (!volume.equals("host")) {
      return new Decision(null, FailureKind.CONFIG, "unknown benchmark volume '" + volume + "'; expected guest or host");
    }
    Optional<VolumeTransport> transport = offered.stream()
        .map(VolumeTransport::fromWire).flatMap(Optional::stream).findFirst();
    if (transport.isEmpty()) {
      return new Decision(null, FailureKind.INFRA, "volume host: hypervisor " + hypervisor + " on host " + hostId
          + " offers no volume transport (see the worker log for why)");
    }
    try {
      return new Decision(new VolumePlan(transport.get(), transport.get().mountOptions(volumeOptions)), null, null);
    } catch (IllegalArgumentException e) {
      return new Decision(null, FailureKind.CONFIG, e.getMessage());
    }
  }

  /** How /init mounts it. */
  HarnessParams.Volume guestVolume() {
    return new HarnessParams.Volume(transport.fsType(), VolumeTransport.TAG, options);
  }
}
