package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.GuestSetup;
import dev.abfleet.controller.schedule.FleetSummary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** volume: host in host matching and in the host class. */
class HostVolumeClassTest {

  private static final HostCapabilities NINE_P = host("h9", List.of("9p"));
  private static final HostCapabilities NO_TRANSPORT = host("h0", List.of());
  private static final HostCapabilities BOTH = host("hb", List.of("virtiofs", "9p"));

  @Test
  void aHostVolumeBenchmarkMatchesOnlyHostsWhoseHypervisorOffersATransport() {
    HostSelector selector = spec("host").selector();

    assertThat(selector.matches(NINE_P)).isTrue();
    assertThat(selector.matches(NO_TRANSPORT)).isFalse();
  }

  @Test
  void aGuestVolumeBenchmarkIgnoresTransports() {
    assertThat(spec("guest").selector().matches(NO_TRANSPORT)).isTrue();
  }

  @Test
  void plansAHostVolumeBlockInTheClassOfItsTransport() {
    assertThat(HostClassKey.planned(spec("host"), NINE_P)).isEqualTo("qemu/tcg volume=9p");
    assertThat(HostClassKey.planned(spec("guest"), NINE_P)).isEqualTo("qemu/tcg");
  }

  @Test
  void neverPoolsBootsOfDifferentTransports() {
    RunOutcome ninep = boot().withGuest(new GuestFacts("9p", "trans=virtio,version=9p2000.L,msize=512000",
        List.of(), List.of()));
    RunOutcome virtiofs = boot().withGuest(new GuestFacts("virtiofs", "rw", List.of(), List.of()));

    assertThat(HostClassKey.of(ninep)).isEqualTo("qemu/tcg volume=9p");
    assertThat(HostClassKey.of(virtiofs)).isEqualTo("qemu/tcg volume=virtiofs");
    assertThat(HostClassKey.of(boot())).isEqualTo("qemu/tcg");
  }

  @Test
  void rejectsAHostVolumeSubmitWhenNoKnownHostAdvertisesATransport() {
    assertThat(FleetSummary.unsatisfiable(spec("host").selector(), List.of(NO_TRANSPORT)))
        .hasValueSatisfying(why -> assertThat(why)
            .startsWith("no host can run volume host: no host matching hypervisor=qemu advertises a volume transport"));
    assertThat(FleetSummary.unsatisfiable(spec("host").selector(), List.of(NO_TRANSPORT, NINE_P))).isEmpty();
  }

  @Test
  void aBenchmarkNamingVirtiofsMatchesOnlyHostsThatOfferItAndClassesThemByIt() {
    ExperimentSpec spec = spec("host", "virtiofs");

    assertThat(spec.selector().matches(NINE_P)).isFalse();
    assertThat(spec.selector().matches(BOTH)).isTrue();
    assertThat(HostClassKey.planned(spec, BOTH)).isEqualTo("qemu/tcg volume=virtiofs");
  }

  @Test
  void anArmNamingNinePOnAHostPreferringVirtiofsIsPlannedOverNineP() {
    ExperimentSpec s = spec("host", "");
    List<ArmSpec> arms = s.arms().stream().map(a -> new ArmSpec(a.name(), a.role(), a.kernel(), a.initrd(),
        a.cmdlineExtra(), a.vcpus(), a.memoryMib(), GuestSetup.NONE.withVolume("9p", ""),
        a.build())).toList();
    ExperimentSpec spec = new ExperimentSpec(s.name(), arms, s.benchmark(), s.selector(), s.policy(), s.priority());

    assertThat(spec.selector().volumeTransports()).containsExactly("9p");
    assertThat(HostClassKey.planned(spec, BOTH)).isEqualTo("qemu/tcg volume=9p");
  }

  @Test
  void rejectsASubmitNamingATransportNoKnownHostOffersAndSaysWhatToInstall() {
    assertThat(FleetSummary.unsatisfiable(spec("host", "virtiofs").selector(), List.of(NINE_P)))
        .hasValueSatisfying(why -> assertThat(why).startsWith("no host offers volume transport virtiofs")
            .contains("virtiofsd").contains("transport: auto"));
    assertThat(FleetSummary.unsatisfiable(spec("host", "virtiofs").selector(), List.of(NINE_P, BOTH))).isEmpty();
  }

  @Test
  void rejectsUnknownTransportsAndCacheModesAndVolumeSettingsWithoutAHostVolume() {
    ExperimentSpec s = spec("guest", "");
    List<ArmSpec> arms = s.arms().stream().map(a -> new ArmSpec(a.name(), a.role(), a.kernel(), a.initrd(),
        a.cmdlineExtra(), a.vcpus(), a.memoryMib(),
        GuestSetup.NONE.withVolume("nfs", "loose"), a.build())).toList();
    ExperimentSpec spec = new ExperimentSpec(s.name(), arms, s.benchmark(), s.selector(), s.policy(), s.priority());

    assertThat(SpecValidator.validate(spec)).anySatisfy(p -> assertThat(p).contains("unknown volume transport 'nfs'"))
        .anySatisfy(p -> assertThat(p).contains("unknown virtio-fs cache mode 'loose'"))
        .anySatisfy(p -> assertThat(p).contains("benchmark volume is 'guest'"));
  }

  private static ExperimentSpec spec(String volume) {
    return spec(volume, "");
  }

  private static ExperimentSpec spec(String volume, String transport) {
    ExperimentSpec s = Specs.ab(4, 1);
    BenchmarkSpec b = s.benchmark();
    return new ExperimentSpec(s.name(), s.arms(), new BenchmarkSpec(b.harness(), b.metrics(), b.iterations(),
        b.iterationMs(), b.warmupIterations(), volume, 0, "warm", null, transport, List.of()), s.selector(), s.policy(),
        s.priority());
  }

  private static HostCapabilities host(String id, List<String> transports) {
    return new HostCapabilities(id, "x86_64", 2, 4096, Map.of(), Map.of("qemu", List.of("tcg")), "", "", "",
        Map.of(), Map.of("qemu", transports));
  }

  private static RunOutcome boot() {
    return new RunOutcome("r1", "base", "h9", 0, 0, 1, RunOutcome.Status.OK, "tcg", "qemu", 100, 1000, 5, "6.1.0",
        List.of(), "", "");
  }
}
