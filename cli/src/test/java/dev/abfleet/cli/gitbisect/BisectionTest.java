package dev.abfleet.cli.gitbisect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class BisectionTest {

  /** Runs the search with a culprit at {@code culprit}: probes at or after it are bad. */
  private static Bisection search(int size, int culprit) {
    Bisection b = new Bisection(size);
    for (OptionalInt next = b.next(); next.isPresent(); next = b.next()) {
      int i = next.getAsInt();
      b.record(i, i >= culprit ? ProbeClass.BAD : ProbeClass.GOOD);
    }
    return b;
  }

  @Test
  void findsEveryCulpritWithinCeilLog2Probes() {
    for (int size = 2; size <= 40; size++) {
      for (int culprit = 1; culprit < size; culprit++) {
        Bisection b = search(size, culprit);
        assertThat(b.bad()).as("size %d culprit %d", size, culprit).isEqualTo(culprit);
        assertThat(b.good()).isEqualTo(culprit - 1);
        assertThat(b.probed().size()).isLessThanOrEqualTo(Bisection.maxProbes(size));
      }
    }
  }

  @Test
  void aRangeOfOneCommitNeedsNoProbe() {
    assertThat(new Bisection(2).next()).isEmpty();
    assertThat(Bisection.maxProbes(2)).isZero();
  }

  @Test
  void fiveCommitsAfterTheGoodOneNeedAtMostThreeProbes() {
    assertThat(Bisection.maxProbes(6)).isEqualTo(3);
    assertThat(search(6, 3).probed()).containsExactly(2, 3);
  }

  @Test
  void anAmbiguousProbeLeavesTheRangeOpen() {
    Bisection b = new Bisection(6);
    b.record(2, ProbeClass.AMBIGUOUS);
    assertThat(b.good()).isZero();
    assertThat(b.bad()).isEqualTo(5);
  }

  @Test
  void refusesAProbeOutsideTheOpenRange() {
    Bisection b = new Bisection(6);
    assertThatThrownBy(() -> b.record(0, ProbeClass.GOOD)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.record(5, ProbeClass.BAD)).isInstanceOf(IllegalArgumentException.class);
  }
}
