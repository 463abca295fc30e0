package dev.abfleet.cli.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.config.Problem;
import dev.abfleet.stats.Policy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SmallSamplesTest {
  @Test
  void sequentialRulesAreMeasuredOnlyAtThirtyTwoPairs() {
    assertThat(SmallSamples.rulesAt(8)).doesNotContain(Rule.ABFLEET_SEQUENTIAL,
        Rule.ADAPTIVE_RETEST).contains(Rule.ABFLEET_FIXED, Rule.POOLED_MANN_WHITNEY);
    assertThat(SmallSamples.rulesAt(32)).containsExactly(Rule.values());
  }

  @Test
  void everyRateCountsTheExperimentsRunAtExactlyThatManyPairs() {
    List<SmallSamples.Row> rows = SmallSamples.run(Scenario.OUTLIERS, 20, 1, 2, Policy.DEFAULT, 8);
    assertThat(rows).extracting(SmallSamples.Row::pairs).containsOnly(8);
    assertThat(rows).allSatisfy(r -> {
      assertThat(r.falsePositive().trials()).isEqualTo(20);
      assertThat(r.power5().trials()).isEqualTo(20);
    });
  }

  @Test
  void sameSeedGivesTheSameFigures() {
    assertThat(SmallSamples.run(Scenario.BIMODAL, 10, 7, 2, Policy.DEFAULT, 12))
        .isEqualTo(SmallSamples.run(Scenario.BIMODAL, 10, 7, 2, Policy.DEFAULT, 12));
  }

  /** Reference: scipy.stats.binomtest(k, n).proportion_ci(method='wilson'). */
  @Test
  void wilsonIntervalMatchesScipy() {
    double[] a = Wilson.interval(20, 400, 1.959963984540054);
    assertThat(a[0]).isCloseTo(0.03259742983714726, within(1e-9));
    assertThat(a[1]).isCloseTo(0.07596363506371961, within(1e-9));
    double[] b = Wilson.interval(0, 400, 1.959963984540054);
    assertThat(b[0]).isEqualTo(0.0);
    assertThat(b[1]).isCloseTo(0.009512294334296508, within(1e-9));
    double[] c = Wilson.interval(212, 400, 1.959963984540054);
    assertThat(c[0]).isCloseTo(0.4810361559058216, within(1e-9));
    assertThat(c[1]).isCloseTo(0.5783931064341206, within(1e-9));
  }

  @Test
  void tableShowsEachRateWithItsInterval() {
    SmallSamples.Rate r = new SmallSamples.Rate(20, 400);
    assertThat(CalibrationTable.rate(r)).isEqualTo("5.0% [3.3-7.6]");
    List<SmallSamples.Row> rows = SmallSamples.run(Scenario.LOGNORMAL, 10, 1, 1, Policy.DEFAULT, 8);
    String md = CalibrationTable.renderSmall(rows, true);
    assertThat(md.lines()).hasSize(rows.size() + 2);
    assertThat(md).startsWith("| scenario | pairs | rule | A/A FP (family-wise) |");
  }

  @Test
  void commandPrintsOneBlockPerPairCount() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CalibrateCommand cmd = new CalibrateCommand();
    cmd.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code = new CommandLine(cmd).execute("--experiments", "10", "--metrics", "1",
        "--scenario", "outliers", "--pairs", "12,8");
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(out).contains("outliers  8 ").contains("outliers  12").contains("exactly 8, 12 pairs");
  }

  @Test
  void rejectsAPairCountOutOfRange() {
    CalibrateCommand cmd = new CalibrateCommand();
    new CommandLine(cmd).parseArgs("--pairs", "3,8");
    assertThatThrownBy(cmd::call).isInstanceOf(Problem.class)
        .hasMessageContaining("--pairs 3").hasMessageContaining("--pairs 8,12,16,32");
  }
}
