package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.worker.vm.VolumeTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which transport a host-volume boot uses, and what it refuses. */
class VolumePlanTest {
  private static final List<String> BOTH = List.of("virtiofs", "9p");

  @Test
  void takesTheHostsPreferredTransportWhenNoneIsNamed() {
    assertThat(decide("", BOTH, "").plan().transport()).isEqualTo(VolumeTransport.VIRTIOFS);
    assertThat(decide("auto", List.of("9p"), "").plan().transport()).isEqualTo(VolumeTransport.NINE_P);
  }

  @Test
  void takesTheNamedTransportOverTheHostsPreference() {
    VolumePlan p = decide("9p", BOTH, "").plan();

    assertThat(p.transport()).isEqualTo(VolumeTransport.NINE_P);
    assertThat(p.options()).contains("trans=virtio");
  }

  @Test
  void failsAsInfraWhenTheNamedTransportIsNotOfferedHere() {
    VolumePlan.Decision d = decide("virtiofs", List.of("9p"), "");

    assertThat(d.kind()).isEqualTo(FailureKind.INFRA);
    assertThat(d.problem().orElseThrow()).contains("volume transport virtiofs").contains("it offers 9p").contains("transport: auto");
  }

  @Test
  void carriesTheDaemonsCacheModeForVirtiofs() {
    assertThat(decide("virtiofs", BOTH, "always").plan().cache()).isEqualTo("always");
  }

  @Test
  void refusesADaemonCacheModeForNineP() {
    VolumePlan.Decision d = decide("9p", BOTH, "always");

    assertThat(d.kind()).isEqualTo(FailureKind.CONFIG);
    assertThat(d.problem().orElseThrow()).contains("virtio-fs daemon setting").contains("cache= in volume_options");
  }

  @Test
  void refusesAnUnknownTransport() {
    assertThat(decide("nfs", BOTH, "").problem().orElseThrow()).contains("unknown volume transport 'nfs'");
  }

  private static VolumePlan.Decision decide(String transport, List<String> offered, String cache) {
    return VolumePlan.decide("host", transport, offered, "", cache, "qemu", "h1");
  }
}
