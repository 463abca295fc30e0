package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.jupiter.api.Test;

/** The submitting token's id travels with the spec; journals written before it still load. */
class ExperimentOwnerTest extends EntityTestKit {
  private ObjectMapper cbor() {
    return JacksonObjectMapperProvider.get(kit.system()).getOrCreate("jackson-cbor", Optional.empty());
  }

  @Test
  void theOwnerSurvivesTheJournal() throws Exception {
    ExperimentSpec spec = Specs.ab(4, 7).withOwner("0123456789ab");
    byte[] bytes = cbor().writeValueAsBytes(spec);
    assertThat(cbor().readValue(bytes, ExperimentSpec.class).owner()).isEqualTo("0123456789ab");
  }

  @Test
  void aSpecRecordedWithoutAnOwnerReadsAsOwnedByNoToken() throws Exception {
    ObjectNode old = cbor().valueToTree(Specs.ab(4, 7).withOwner("0123456789ab"));
    old.remove("owner");
    ExperimentSpec back = cbor().treeToValue(old, ExperimentSpec.class);
    assertThat(back.owner()).isEmpty();
    assertThat(back.withOwner("").equals(Specs.ab(4, 7))).isTrue();
  }
}
