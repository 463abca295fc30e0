package dev.abfleet.cli.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bisect example of {@code abfleet sim-kernels --help}, run as written (16 kernels, a x0.85
 * seq_read step from #9, the bisect's defaults: threshold and alpha of fleet.yaml, looks
 * 10,15,20) on a controller and two sim workers: it must find #9 within ceil(log2(16)) + 1 = 5
 * experiments (the endpoints' and at most four probes). A few seeds here; the 20-seed rates of
 * this and two more steps are {@link SimBisectRatesTest} (tagged e2e).
 */
class SimKernelsHelpExampleTest {
  @TempDir static Path home;

  @Test
  void theHelpExampleIsABisectOfSixteenKernelsWithAFifteenPercentStepFromNine() {
    List<List<String>> example = SimKernelsBisect.helpExample();
    assertThat(example.get(0)).containsExactly("--hypervisor", "sim", "--metric", "seq_read", "--controller", "H:P");
    assertThat(example.get(1)).containsExactly("--dir", "/tmp/k", "--count", "16", "--first-bad", "9", "--effect",
        "seq_read=0.85");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  @Timeout(120)
  void theHelpExampleFindsTheCulpritWithinFiveExperiments(long seed) {
    List<List<String>> example = SimKernelsBisect.helpExample();
    SimKernelsBisect.Outcome o = SimKernelsBisect.run(home, seed, example.get(0), example.get(1));
    assertThat(o.exit()).as(o.report()).isEqualTo(ExitCodes.OK);
    assertThat(o.firstBad()).as(o.report()).isEqualTo(9);
    assertThat(o.steps()).as(o.report()).isBetween(4, 5);
    assertThat(o.report()).as(o.report()).contains("rule: against #0, a probe is good when its interval rules out 0.5 x");
  }
}
