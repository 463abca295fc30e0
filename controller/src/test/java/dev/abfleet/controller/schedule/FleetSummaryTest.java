package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.PinNeed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetSummaryTest {
  static HostCapabilities host(String id, String arch, Map<String, List<String>> hypervisors) {
    return new HostCapabilities(id, arch, 2, 4096, Map.of(), hypervisors, "", "", "");
  }

  static final List<HostCapabilities> THREE_QEMU = List.of(
      host("h1", "x86_64", Map.of("qemu", List.of("tcg"))),
      host("h2", "x86_64", Map.of("qemu", List.of("tcg"))),
      host("h3", "x86_64", Map.of("qemu", List.of("tcg"))));

  @Test
  void rejectsASelectorNoKnownHostMatchesAndSaysWhatTheFleetHas() {
    var selector = new HostSelector("vz", "aarch64", Map.of(), List.of());

    assertThat(FleetSummary.unsatisfiable(selector, THREE_QEMU)).hasValueSatisfying(why ->
        assertThat(why).startsWith(
            "no host matches hypervisor=vz arch=aarch64; the fleet has: 3 x qemu/x86_64 (tcg)"));
  }

  @Test
  void pinnedArmNoHostHasTheCpusForSaysWhatItNeedsAndTheLargestHost() {
    var selector = new HostSelector("qemu", "", Map.of(), List.of()).pinning(new PinNeed("pinned", 4));

    assertThat(FleetSummary.unsatisfiable(selector, THREE_QEMU)).contains(
        "arm pinned needs 4 CPUs to pin 4 vCPUs; the largest host matching hypervisor=qemu has 2. Pin fewer"
            + " vCPUs, leave the arm unpinned, or connect a worker with more CPUs.");
  }

  @Test
  void pinnedArmOnHostsWhoseHypervisorCannotPinSaysSoAndTheFix() {
    var vzOnly = new HostCapabilities("mac1", "aarch64", 8, 16384, Map.of(), Map.of("vz", List.of("vz")), "", "", "",
        Map.of(), Map.of(), Map.of(), java.util.Set.of("vz"));
    var selector = new HostSelector("vz", "", Map.of(), List.of()).pinning(new PinNeed("pinned", 2));

    assertThat(FleetSummary.unsatisfiable(selector, List.of(vzOnly))).contains(
        "arm pinned has pinned vCPUs, and the hosts matching hypervisor=vz run it on vz, which cannot pin vCPU"
            + " threads. Run the pinned arm on qemu, or leave it unpinned.");
  }

  @Test
  void pinnedArmIsAcceptedWhenOneHostHasTheCpus() {
    var selector = new HostSelector("qemu", "", Map.of(), List.of()).pinning(new PinNeed("pinned", 2));

    assertThat(FleetSummary.unsatisfiable(selector, THREE_QEMU)).isEmpty();
  }

  @Test
  void queuesWhenNoHostIsKnownYet() {
    var selector = new HostSelector("vz", "aarch64", Map.of(), List.of());

    assertThat(FleetSummary.unsatisfiable(selector, List.of())).isEmpty();
  }

  @Test
  void acceptsWhenOneKnownHostMatchesWhateverItsState() {
    var selector = new HostSelector("qemu", "", Map.of(), List.of("h3", "h7"));

    assertThat(FleetSummary.unsatisfiable(selector, THREE_QEMU)).isEmpty();
  }

  @Test
  void explicitHostsThatNoOneHasListTheKnownIds() {
    var selector = new HostSelector("qemu", "", Map.of(), List.of("h7"));

    assertThat(FleetSummary.unsatisfiable(selector, THREE_QEMU)).hasValueSatisfying(why ->
        assertThat(why).contains("hosts=[h7]").contains("host ids: h1, h2, h3"));
  }

  @Test
  void groupsHostsByHypervisorArchAndAccelerators() {
    var hosts = List.of(
        host("a", "x86_64", Map.of("qemu", List.of("kvm", "tcg"))),
        host("b", "aarch64", Map.of("vz", List.of("vz"))),
        host("c", "x86_64", Map.of("qemu", List.of())));

    assertThat(FleetSummary.describe(hosts)).isEqualTo(
        "1 x qemu/x86_64 (kvm,tcg), 1 x qemu/x86_64 (unusable), 1 x vz/aarch64 (vz)");
  }
}
