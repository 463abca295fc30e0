package dev.abfleet.controller.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The boot order of every pair, fixed by the seed. With two arms half the pairs boot the
 * baseline first and half the candidate first (an odd count gets one extra order chosen by the
 * seed), shuffled. With more arms each pair uses a rotation of the arm list, every rotation
 * equally often, shuffled the same way.
 */
public final class PairOrder {
  private PairOrder() {}

  /**
   * @param arms arm names, baseline first
   * @return for each pair index, the arm names in boot order
   */
  public static List<List<String>> plan(List<String> arms, int pairs, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int m = arms.size();
    List<Integer> rotations = new ArrayList<>(pairs);
    int full = pairs / m * m;
    for (int i = 0; i < full; i++) {
      rotations.add(i % m);
    }
    List<Integer> extra = new ArrayList<>();
    for (int r = 0; r < m; r++) {
      extra.add(r);
    }
    shuffle(extra, random);
    rotations.addAll(extra.subList(0, pairs - full));
    shuffle(rotations, random);
    List<List<String>> order = new ArrayList<>(pairs);
    for (int rotation : rotations) {
      List<String> boots = new ArrayList<>(m);
      for (int k = 0; k < m; k++) {
        boots.add(arms.get((rotation + k) % m));
      }
      order.add(List.copyOf(boots));
    }
    return List.copyOf(order);
  }

  private static <T> void shuffle(List<T> list, SplittableRandom random) {
    for (int i = list.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      T t = list.get(i);
      list.set(i, list.get(j));
      list.set(j, t);
    }
  }
}
