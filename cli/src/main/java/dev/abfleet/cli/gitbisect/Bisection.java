package dev.abfleet.cli.gitbisect;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The binary search over a first-parent commit range: index 0 is the good endpoint, the last
 * index the bad one. Each probe splits the open range {@code (good, bad]}; the first bad commit
 * is found when they are neighbours. Pure: the caller measures, this decides what to probe.
 */
public final class Bisection {
  private final int size;
  private int good;
  private int bad;
  private final List<Integer> probed = new ArrayList<>();

  /** @param size commits in the range, both endpoints included (at least 2) */
  public Bisection(int size) {
    if (size < 2) {
      throw new IllegalArgumentException("a range needs a good and a bad commit, got " + size);
    }
    this.size = size;
    this.good = 0;
    this.bad = size - 1;
  }

  /** The commit to probe next; empty once the first bad commit is known. */
  public OptionalInt next() {
    return bad - good <= 1 ? OptionalInt.empty() : OptionalInt.of(good + (bad - good) / 2);
  }

  /** Records a probe's class; AMBIGUOUS leaves the range as it was (the caller stops). */
  public void record(int index, ProbeClass c) {
    if (index <= good || index >= bad) {
      throw new IllegalArgumentException("probe " + index + " is outside the open range (" + good + ", " + bad + ")");
    }
    probed.add(index);
    switch (c) {
      case GOOD -> good = index;
      case BAD -> bad = index;
      case AMBIGUOUS -> { }
    }
  }

  /** The last known good commit. */
  public int good() {
    return good;
  }

  /** The first known bad commit: the culprit once {@link #next()} is empty. */
  public int bad() {
    return bad;
  }

  public int size() {
    return size;
  }

  /** Probes recorded, in order. */
  public List<Integer> probed() {
    return List.copyOf(probed);
  }

  /** ceil(log2(commits between the endpoints + 1)): the probes a search of this range needs at most. */
  public static int maxProbes(int size) {
    int open = size - 1;
    int n = 0;
    while ((1 << n) < open) {
      n++;
    }
    return n;
  }
}
