package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.report.BootHost;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.jupiter.api.Test;

/** A boot's host pressure and facts survive the journal; boots recorded before hosts were sampled read back without. */
class HostPressureJournalTest extends EntityTestKit {
  static final BootHost BUSY = new BootHost(
      new BootHost.Pressure(true, 37.2, 1_250_000, 0.5, 4_000, 0, 0, 9.3, 7, 15_800, 9_000, 14_000, 2),
      new BootHost.Facts("QEMU emulator version 8.2.2", "6.8.0-45-generic", "AMD EPYC 7B13", "0xa0011d1", "on",
          "schedutil", "off", "madvise", 7_936, "0-1"),
      true);
  static final GuestFacts SAMPLED = new GuestFacts("", "", List.of(0, 1), List.of(), "x86_64", "", "", 0, List.of(),
      null).withHost(BUSY);

  private ObjectMapper cbor() {
    return JacksonObjectMapperProvider.get(kit.system()).getOrCreate("jackson-cbor", Optional.empty());
  }

  @Test
  void hostPressureAndFactsSurviveTheJournal() throws Exception {
    GuestFacts back = cbor().readValue(cbor().writeValueAsBytes(SAMPLED), GuestFacts.class);

    assertThat(back).isEqualTo(SAMPLED);
    assertThat(back.host().pressure().cpuSomeTotalUs()).isEqualTo(1_250_000);
    assertThat(back.host().interfered()).isTrue();
  }

  @Test
  void factsRecordedBeforeHostsWereSampledReadBackWithoutHost() throws Exception {
    ObjectNode facts = cbor().valueToTree(SAMPLED);
    facts.remove("host");

    GuestFacts back = cbor().treeToValue(facts, GuestFacts.class);

    assertThat(back.host()).isNull();
    assertThat(back.vcpuHostCpus()).containsExactly(0, 1);
  }

  @Test
  void factsWithoutHostAreWrittenAsBefore() throws Exception {
    GuestFacts unsampled = SAMPLED.withHost(null);

    assertThat(cbor().valueToTree(unsampled).has("host")).isFalse();
  }
}
