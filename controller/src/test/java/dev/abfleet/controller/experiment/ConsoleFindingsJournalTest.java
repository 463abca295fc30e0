package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.jupiter.api.Test;

/** Console patterns and findings survive the journal; events written before console scans still load. */
class ConsoleFindingsJournalTest extends EntityTestKit {
  private static final GuestFacts WARNED = new GuestFacts("", "", List.of(), List.of(), "x86_64", "", "",
      2, List.of("[    1.9] WARNING: CPU: 0 PID: 1 at init/main.c:1530 f+0x1/0x2", "[    1.9] Call Trace:"));

  private ObjectMapper cbor() {
    return JacksonObjectMapperProvider.get(kit.system()).getOrCreate("jackson-cbor", Optional.empty());
  }

  @Test
  void findingsAndPatternsSurviveTheJournal() throws Exception {
    assertThat(cbor().readValue(cbor().writeValueAsBytes(WARNED), GuestFacts.class)).isEqualTo(WARNED);
    ExperimentSpec spec = Specs.ab(4, 7).withConsolePatterns(List.of("detected stalls"));
    assertThat(cbor().readValue(cbor().writeValueAsBytes(spec), ExperimentSpec.class).consolePatterns())
        .containsExactly("detected stalls");
  }

  @Test
  void factsAndSpecsRecordedBeforeConsoleScansReadAsNotScanned() throws Exception {
    ObjectNode facts = cbor().valueToTree(WARNED);
    facts.remove("consoleFindings");
    facts.remove("consoleLines");
    GuestFacts back = cbor().treeToValue(facts, GuestFacts.class);
    assertThat(back.consoleFindings()).isZero();
    assertThat(back.consoleLines()).isEmpty();
    ObjectNode spec = cbor().valueToTree(Specs.ab(4, 7));
    spec.remove("consolePatterns");
    assertThat(cbor().treeToValue(spec, ExperimentSpec.class)).isEqualTo(Specs.ab(4, 7));
  }
}
