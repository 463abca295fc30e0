package dev.abfleet.controller.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.abfleet.report.BootHost;
import dev.abfleet.report.DaemonUsage;
import java.util.List;

/**
 * What the worker and the guest recorded about a boot beyond its samples.
 *
 * @param volumeTransport "9p" or "virtiofs" for a host-shared volume; empty = volume guest
 * @param volumeOptions mount options the guest used for the host volume; empty = volume guest
 * @param vcpuHostCpus host CPU of each pinned vCPU thread (index = vCPU); empty = not pinned
 * @param counters guest counters per metric, in the harness's order
 * @param guestArch guest architecture of the boot ("x86_64", "aarch64"); empty = unknown
 * @param guestImageSha256 SHA-256 of the guest image the boot used; empty = the arm's own initrd
 *     or unknown
 * @param consoleLogSha256 SHA-256 of the boot's console log in the controller's artifact store;
 *     empty = not uploaded (absent from events recorded before logs were uploaded)
 * @param consoleFindings console lines that matched the experiment's console patterns; 0 = clean
 *     or not scanned (events recorded before console scans)
 * @param consoleLines the first of them (at most 20, each at most 300 characters)
 * @param volumeDaemon the host process that served the volume and what it used; null = none (or
 *     recorded before daemons were measured)
 * @param host the host's pressure and facts around the boot; null = not sampled (sim hosts, or
 *     recorded before hosts were sampled)
 */
public record GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
    List<GuestCounters> counters, String guestArch, String guestImageSha256, String consoleLogSha256,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int consoleFindings,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> consoleLines,
    @JsonInclude(JsonInclude.Include.NON_NULL) DaemonUsage volumeDaemon,
    @JsonInclude(JsonInclude.Include.NON_NULL) BootHost host) {
  public static final GuestFacts NONE = new GuestFacts("", "", List.of(), List.of());

  public GuestFacts {
    volumeTransport = volumeTransport == null ? "" : volumeTransport;
    volumeOptions = volumeOptions == null ? "" : volumeOptions;
    vcpuHostCpus = vcpuHostCpus == null ? List.of() : List.copyOf(vcpuHostCpus);
    counters = counters == null ? List.of() : List.copyOf(counters);
    guestArch = guestArch == null ? "" : guestArch;
    guestImageSha256 = guestImageSha256 == null ? "" : guestImageSha256;
    consoleLogSha256 = consoleLogSha256 == null ? "" : consoleLogSha256;
    consoleLines = consoleLines == null ? List.of() : List.copyOf(consoleLines);
  }

  /** Facts of a boot whose host was not sampled. */
  public GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
      List<GuestCounters> counters, String guestArch, String guestImageSha256, String consoleLogSha256,
      int consoleFindings, List<String> consoleLines, DaemonUsage volumeDaemon) {
    this(volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256, consoleLogSha256,
        consoleFindings, consoleLines, volumeDaemon, null);
  }

  /** The same facts with the host's pressure and facts around the boot (null = not sampled). */
  public GuestFacts withHost(BootHost sampled) {
    return new GuestFacts(volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleLogSha256, consoleFindings, consoleLines, volumeDaemon, sampled);
  }

  /** Facts of a boot with no volume daemon. */
  public GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
      List<GuestCounters> counters, String guestArch, String guestImageSha256, String consoleLogSha256,
      int consoleFindings, List<String> consoleLines) {
    this(volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256, consoleLogSha256,
        consoleFindings, consoleLines, null);
  }

  /** Facts of a boot whose console was not scanned, with no volume daemon. */
  public GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
      List<GuestCounters> counters, String guestArch, String guestImageSha256, String consoleLogSha256) {
    this(volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256, consoleLogSha256,
        0, List.of(), null);
  }

  /** Facts of a boot whose console log was not uploaded. */
  public GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
      List<GuestCounters> counters, String guestArch, String guestImageSha256) {
    this(volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256, "");
  }

  /** Facts of a boot whose guest architecture and image are unknown. */
  public GuestFacts(String volumeTransport, String volumeOptions, List<Integer> vcpuHostCpus,
      List<GuestCounters> counters) {
    this(volumeTransport, volumeOptions, vcpuHostCpus, counters, "", "");
  }
}
