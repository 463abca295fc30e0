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

  /**
   * The boot order for a pair on a host: the seeded order when it keeps the host balanced,
   * else the rotation this host has used least (first-booted arm counted over the host's
   * pairs so far), trying rotations from the seeded one on. On one host this makes balanced
   * blocks of {@code arms.size()} pairs, each block's order random; on several hosts every
   * host is balanced too, so a host effect cannot masquerade as an order effect.
   *
   * @param seeded this pair's order from {@link #plan}
   * @param arms arm names, baseline first
   * @param firstsOnHost the first-booted arm of each pair already on this host
   */
  public static List<String> balancedOnHost(List<String> seeded, List<String> arms, List<String> firstsOnHost) {
    int m = arms.size();
    int[] used = new int[m];
    for (String first : firstsOnHost) {
      int r = arms.indexOf(first);
      if (r >= 0) {
        used[r]++;
      }
    }
    int min = java.util.Arrays.stream(used).min().orElse(0);
    int start = arms.indexOf(seeded.get(0));
    for (int k = 0; k < m; k++) {
      int r = (start + k) % m;
      if (used[r] == min) {
        List<String> order = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
          order.add(arms.get((r + i) % m));
        }
        return List.copyOf(order);
      }
    }
    return seeded;
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
