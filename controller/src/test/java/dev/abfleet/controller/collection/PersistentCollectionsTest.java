package dev.abfleet.controller.collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PersistentCollectionsTest {

  @Test
  void addingToAMapLeavesTheEarlierVersionAsItWas() {
    PersistentMap<Integer, String> one = PersistentMap.<Integer, String>empty().with(1, "a");
    PersistentMap<Integer, String> two = one.with(2, "b");
    PersistentMap<Integer, String> replaced = two.with(1, "c");

    assertThat(one).isEqualTo(Map.of(1, "a"));
    assertThat(two).isEqualTo(Map.of(1, "a", 2, "b"));
    assertThat(replaced).isEqualTo(Map.of(1, "c", 2, "b"));
    assertThat(replaced.without(2)).isEqualTo(Map.of(1, "c"));
    assertThat(replaced).containsEntry(2, "b");
  }

  @Test
  void mapBehavesAsAHashMapOverManyKeys() {
    Map<Integer, Integer> expected = new HashMap<>();
    PersistentMap<Integer, Integer> map = PersistentMap.empty();
    for (int i = 0; i < 5000; i++) {
      map = map.with(i % 1700, i);
      expected.put(i % 1700, i);
      if (i % 3 == 0) {
        map = map.without(i % 500);
        expected.remove(i % 500);
      }
    }
    assertThat(map).isEqualTo(expected).hasSize(expected.size());
    assertThat(map.get(-1)).isNull();
    assertThat(map.keySet()).isEqualTo(expected.keySet());
  }

  @Test
  void copyOfAPersistentMapIsTheSameInstance() {
    PersistentMap<String, Integer> map = PersistentMap.of(Map.of("h1", 1));
    assertThat(PersistentMap.of(map)).isSameAs(map);
  }

  @Test
  void rejectsNullValues() {
    assertThatThrownBy(() -> PersistentMap.<String, String>empty().with("k", null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void addingToASetLeavesTheEarlierVersionAsItWas() {
    PersistentSet<String> one = PersistentSet.of(Set.of("r1"));
    PersistentSet<String> two = one.with("r2");

    assertThat(one).containsExactly("r1");
    assertThat(two).containsExactlyInAnyOrder("r1", "r2").isEqualTo(Set.of("r1", "r2"));
    assertThat(two.contains("r3")).isFalse();
  }
}
