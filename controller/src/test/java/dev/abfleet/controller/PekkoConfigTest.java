package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PekkoConfigTest {

  @Test
  void seedNodesGivenAsHostAndClusterPortBecomePekkoAddresses() {
    ControllerSettings s = ControllerSettings.inMemory()
        .withCluster("127.0.0.1", 2552, List.of("10.0.0.1:2551", "pekko://abfleet@10.0.0.2:2551"));

    assertThat(PekkoConfig.of(s).getStringList("pekko.cluster.seed-nodes"))
        .containsExactly("pekko://abfleet@10.0.0.1:2551", "pekko://abfleet@10.0.0.2:2551");
  }

  @Test
  void aSeedNodeWithoutPortIsRejectedNamingItAndTheForms() {
    assertThatThrownBy(() -> PekkoConfig.seedAddress("10.0.0.1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seed node '10.0.0.1': expected HOST:CLUSTER_PORT (e.g. 127.0.0.1:2552) or"
            + " pekko://abfleet@HOST:PORT");
  }

  @Test
  void splitBrainResolverKeepsTheMajority() {
    var sbr = PekkoConfig.of(ControllerSettings.inMemory()).getConfig("pekko.cluster.split-brain-resolver");

    assertThat(sbr.getString("active-strategy")).isEqualTo("keep-majority");
    assertThat(sbr.getDuration("stable-after")).hasSeconds(7);
  }

  @Test
  void persistentActorsStashEnoughCommandsForTenThousandHosts() {
    var config = PekkoConfig.of(ControllerSettings.inMemory());

    // 10,000 hosts x 4 commands outstanding + 1,000 experiments x 2 (application.conf's bound).
    assertThat(config.getInt("pekko.persistence.typed.stash-capacity")).isGreaterThanOrEqualTo(42_000);
    assertThat(config.getString("pekko.persistence.typed.stash-overflow-strategy")).isEqualTo("drop");
  }
}
