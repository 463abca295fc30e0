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
   * The boot order for a pair on a host: among the rotations this host has used least (first
   * booted arm counted over the host's pairs so far), those the experiment has used least
   * overall, trying rotations from the seeded one on. On one host this makes balanced blocks
   * of {@code arms.size()} pairs, each block's order random; on several hosts every host stays
   * balanced (so a host effect cannot pass for an order effect) and so does the experiment.
   *
   * @param seeded this pair's order from {@link #plan}
   * @param arms arm names, baseline first
   * @param firstsOnHost the first-booted arm of each pair already on this host
   * @param firstsOverall the first-booted arm of each pair already started anywhere
   */
  public static List<String> balanced(List<String> seeded, List<String> arms, List<String> firstsOnHost,
      List<String> firstsOverall) {
    int m = arms.size();
    int[] onHost = counts(arms, firstsOnHost);
    int[] overall = counts(arms, firstsOverall);
    int start = arms.indexOf(seeded.get(0));
    int best = -1;
    for (int k = 0; k < m; k++) {
      int r = (start + k) % m;
      if (best < 0 || onHost[r] < onHost[best] || (onHost[r] == onHost[best] && overall[r] < overall[best])) {
        best = r;
      }
    }
    List<String> order = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      order.add(arms.get((best + i) % m));
    }
    return List.copyOf(order);
  }

  private static int[] counts(List<String> arms, List<String> firsts) {
    int[] used = new int[arms.size()];
    for (String first : firsts) {
      int r = arms.indexOf(first);
      if (r >= 0) {
        used[r]++;
      }
    }
    return used;
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
