package dev.abfleet.report;

import dev.abfleet.model.CounterRatio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterRatioTest {
  static final MetricCounters COUNTERS = new MetricCounters("metadata_stat", 1000, "ops",
      Map.of("RES", 400L, "virtio1-requests", 100L, "virtio2-requests.0", 250L,
          "virtio2-requests.1", 50L, "virtio2-hiprio", 9L, "LOC", 70L), 3000, -1);

  @Test
  void aGlobSumsTheRowsItMatches() {
    assertThat(CounterRatios.count("virtio*-request*", COUNTERS)).isEqualTo(400.0);
    assertThat(CounterRatios.count("virtio2-*", COUNTERS)).isEqualTo(309.0);
    assertThat(CounterRatios.count("*", COUNTERS)).isEqualTo(879.0);
  }

  @Test
  void aNameCountsItsRowAndAnAbsentRowIsZero() {
    assertThat(CounterRatios.count("RES", COUNTERS)).isEqualTo(400.0);
    assertThat(CounterRatios.count("virtio3-requests", COUNTERS)).isZero();
  }

  @Test
  void dotsAndOtherCharactersInAGlobAreLiteral() {
    assertThat(CounterRatios.count("virtio2-requests.*", COUNTERS)).isEqualTo(300.0);
    assertThat(CounterRatios.count("virtio2-requests?0", COUNTERS)).isZero();
    assertThat(CounterRatios.count("virtio.-requests", COUNTERS)).isZero();
  }

  @Test
  void ctxtIsContextSwitchesAndNoGlobMatchesThem() {
    assertThat(CounterRatios.count("ctxt", COUNTERS)).isEqualTo(3000.0);
    assertThat(CounterRatios.count("c*", COUNTERS)).isZero();
    MetricCounters unknown = new MetricCounters("m", 1, "ops", Map.of(), -1, -1);
    assertThat(CounterRatios.count("ctxt", unknown)).isNaN();
  }

  @Test
  void aBootsRatioIsNaNWhenItsDenominatorDidNotMove() {
    assertThat(CounterRatios.ratio(new CounterRatio("r", "RES", "virtio*-request*"), COUNTERS))
        .isEqualTo(1.0);
    assertThat(CounterRatios.ratio(new CounterRatio("r", "RES", "virtio9-*"), COUNTERS)).isNaN();
    assertThat(CounterRatios.ratio(new CounterRatio("r", "RES", "LOC"), null)).isNaN();
  }

  @Test
  void acceptsValidRatios() {
    assertThat(CounterRatio.problems(List.of(
        new CounterRatio("res_per_virtio_req", "RES", "virtio*-request*"),
        new CounterRatio("ctxt_per_req", "ctxt", "virtio2-requests.0")))).isEmpty();
  }

  @Test
  void rejectsABadName() {
    assertThat(CounterRatio.problems(List.of(new CounterRatio("res-per-req", "RES", "LOC"))))
        .containsExactly("ratios[0].name: ratio name 'res-per-req' must start with a letter and use"
            + " only letters, digits and '_' (at most 64), e.g. res_per_virtio_req");
    assertThat(CounterRatio.problems(List.of(new CounterRatio("", "RES", "LOC"))))
        .singleElement().asString().startsWith("ratios[0].name: the ratio has no name");
  }

  @Test
  void rejectsAnEmptyNumeratorOrDenominator() {
    assertThat(CounterRatio.problems(List.of(new CounterRatio("r", " ", ""))))
        .extracting(p -> p.substring(0, p.indexOf(';')))
        .containsExactly("ratios[0].num: num is empty", "ratios[0].den: den is empty");
  }

  @Test
  void rejectsOtherWildcardsAndSpaces() {
    assertThat(CounterRatio.problems(List.of(new CounterRatio("r", "virtio?-requests", "LOC"),
        new CounterRatio("s", "RES", "Rescheduling interrupts"))))
        .extracting(p -> p.substring(0, p.indexOf(" is not")))
        .containsExactly("ratios[0].num: num 'virtio?-requests'",
            "ratios[1].den: den 'Rescheduling interrupts'");
  }

  @Test
  void rejectsDuplicateNames() {
    assertThat(CounterRatio.problems(List.of(new CounterRatio("r", "RES", "LOC"),
        new CounterRatio("r", "CAL", "LOC"))))
        .containsExactly("ratios[1].name: two ratios are named 'r'; give each ratio its own name");
  }
}
