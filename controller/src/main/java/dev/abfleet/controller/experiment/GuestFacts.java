package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * What the worker and the guest recorded about a boot beyond its samples.
 *
 * @param volumeTransport "9p" or "virtiofs" for a host-shared volume; empty = volume guest
 * @param volumeOptions mount options the guest used for the host volume; empty = volume guest
 * @param vcpuHostCpus host CPU of each pinned vCPU thread (index = vCPU); empty = not pinned
 * @param counters guest counters per metric, in the harness's order
 */
public record GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
    List<GuestCounters> counters) {
  public static final GuestFacts NONE = new GuestFacts("", "", List.of(), List.of());

  public GuestFacts {
    volumeTransport = volumeTransport == null ? "" : volumeTransport;
    volumeOptions = volumeOptions == null ? "" : volumeOptions;
    vcpuHostCpus = vcpuHostCpus == null ? List.of() : List.copyOf(vcpuHostCpus);
    counters = counters == null ? List.of() : List.copyOf(counters);
  }
}
