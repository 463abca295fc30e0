package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reference: scipy.stats.kruskal in reference_values.py. */
class HostEffectsTest {
  @Test
  void kruskalWallisPMatchesScipy() {
    double[] d = {0.035877, 0.151068, -0.178633, 0.168661, -0.004732, -0.079998,
        -0.089762, -0.070401, -0.080227, -0.012269, 0.194728,
        0.155326, 0.12176, 0.094201, -0.131894, 0.143149, -0.112628, 0.190992};
    String[] hosts = new String[d.length];
    for (int i = 0; i < d.length; i++) {
      hosts[i] = i < 6 ? "a" : i < 11 ? "b" : "c";
    }
    List<int[]> groups = HostEffects.groups(hosts);
    assertThat(HostEffects.kruskalWallisP(d, groups))
        .isCloseTo(0.8065785001592425, withinPercentage(1e-6));
  }

  @Test
  void oneHostHasNoHeterogeneityTest() {
    assertThat(HostEffects.kruskalWallisP(new double[] {1, 2, 3},
        HostEffects.groups(new String[] {"a", "a", "a"}))).isNaN();
  }

  @Test
  void percentileIntervalTakesTheTailOrderStatistics() {
    double[] sorted = new double[250];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i;
    }
    assertThat(HostEffects.percentile(sorted, 0.05)).containsExactly(5.0, 244.0);
  }
}
