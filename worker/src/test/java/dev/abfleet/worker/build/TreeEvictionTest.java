package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.build.TreeEviction.TreeUse;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TreeEvictionTest {

  static final long GIB = 1L << 30;

  @Test
  void evictsTheLeastRecentlyUsedUntilTheRestFitTheBudget() {
    List<TreeUse> trees = List.of(new TreeUse("new", 4 * GIB, 300), new TreeUse("old", 4 * GIB, 100),
        new TreeUse("mid", 4 * GIB, 200));

    assertThat(TreeEviction.toEvict(trees, 8 * GIB, Set.of())).containsExactly("old");
    assertThat(TreeEviction.toEvict(trees, 5 * GIB, Set.of())).containsExactly("old", "mid");
  }

  @Test
  void evictsNothingWithinTheBudget() {
    assertThat(TreeEviction.toEvict(List.of(new TreeUse("a", GIB, 1)), GIB, Set.of())).isEmpty();
  }

  @Test
  void neverEvictsATreeInUseEvenIfTheBudgetStaysExceeded() {
    List<TreeUse> trees = List.of(new TreeUse("busy", 10 * GIB, 1), new TreeUse("idle", 2 * GIB, 2));

    assertThat(TreeEviction.toEvict(trees, 4 * GIB, Set.of("busy"))).containsExactly("idle");
  }
}
