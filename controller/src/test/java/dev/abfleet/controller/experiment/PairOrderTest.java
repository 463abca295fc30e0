package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairOrderTest {
  static final List<String> AB = List.of("base", "cand");

  static long baselineFirst(List<List<String>> order) {
    return order.stream().filter(p -> p.get(0).equals("base")).count();
  }

  @Test
  void balancesAbAndBaForEvenPairs() {
    var order = PairOrder.plan(AB, 8, 42);

    assertThat(order).hasSize(8).allSatisfy(p -> assertThat(p).containsExactlyInAnyOrderElementsOf(AB));
    assertThat(baselineFirst(order)).isEqualTo(4);
  }

  @Test
  void oddPairsDifferByOneOrder() {
    var order = PairOrder.plan(AB, 7, 42);

    assertThat(baselineFirst(order)).isIn(3L, 4L);
  }

  @Test
  void sameSeedGivesSameOrderAndSeedsDiffer() {
    assertThat(PairOrder.plan(AB, 16, 7)).isEqualTo(PairOrder.plan(AB, 16, 7));
    assertThat(PairOrder.plan(AB, 16, 7)).isNotEqualTo(PairOrder.plan(AB, 16, 8));
  }

  @Test
  void rotatesEveryArmThroughEveryPositionWithThreeArms() {
    var order = PairOrder.plan(List.of("base", "c1", "c2"), 6, 3);

    for (int position = 0; position < 3; position++) {
      int at = position;
      assertThat(order.stream().filter(p -> p.get(at).equals("base")).count()).isEqualTo(2);
    }
  }

  @Test
  void keepsTheSeededOrderWhenTheHostIsBalanced() {
    List<String> arms = List.of("base", "cand");
    assertThat(PairOrder.balanced(List.of("cand", "base"), arms, List.of(), List.of())).containsExactly("cand", "base");
    assertThat(PairOrder.balanced(List.of("base", "cand"), arms, List.of("base", "cand"), List.of("base", "cand")))
        .containsExactly("base", "cand");
  }

  @Test
  void flipsTheOrderThatWouldUnbalanceTheHost() {
    List<String> arms = List.of("base", "cand");
    assertThat(PairOrder.balanced(List.of("base", "cand"), arms, List.of("base"), List.of("base")))
        .containsExactly("cand", "base");
    assertThat(PairOrder.balanced(List.of("cand", "base"), arms, List.of("cand", "cand", "base"), List.of()))
        .containsExactly("base", "cand");
  }

  @Test
  void aBalancedHostFollowsTheExperimentWideBalance() {
    List<String> arms = List.of("base", "cand");
    assertThat(PairOrder.balanced(List.of("base", "cand"), arms, List.of(), List.of("base", "base", "cand")))
        .containsExactly("cand", "base");
  }

  @Test
  void everyHostAndTheExperimentEndBalancedWhateverTheSeededPlan() {
    List<String> arms = List.of("base", "cand");
    for (long seed = 1; seed <= 50; seed++) {
      List<List<String>> plan = PairOrder.plan(arms, 12, seed);
      java.util.Map<String, java.util.List<String>> firsts = new java.util.HashMap<>();
      List<String> all = new java.util.ArrayList<>();
      for (int pair = 0; pair < plan.size(); pair++) {
        String host = "h" + (pair * 7 % 5);
        List<String> used = firsts.computeIfAbsent(host, h -> new java.util.ArrayList<>());
        String first = PairOrder.balanced(plan.get(pair), arms, used, all).get(0);
        used.add(first);
        all.add(first);
      }
      long baseOverall = all.stream().filter("base"::equals).count();
      assertThat(Math.abs(2 * baseOverall - all.size())).as("seed %d overall: %s", seed, all).isLessThanOrEqualTo(2);
      for (List<String> used : firsts.values()) {
        long base = used.stream().filter("base"::equals).count();
        assertThat(Math.abs(2 * base - used.size())).as("seed %d: %s", seed, used).isLessThanOrEqualTo(1);
      }
    }
  }
}
