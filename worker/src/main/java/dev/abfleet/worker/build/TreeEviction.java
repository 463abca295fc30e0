package dev.abfleet.worker.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Which warm trees to delete to get under a byte budget: the least recently used first. */
final class TreeEviction {

  /**
   * A warm tree as the policy sees it.
   *
   * @param key        its tree key (directory name)
   * @param bytes      its size on disk, bytes
   * @param lastUsedMs when a build last started on it, milliseconds since the epoch
   */
  record TreeUse(String key, long bytes, long lastUsedMs) {}

  private TreeEviction() {}

  /**
   * The keys to delete, oldest use first, until the rest fit in {@code budgetBytes}; trees in
   * {@code inUse} are never chosen, even if the budget then stays exceeded.
   */
  static List<String> toEvict(List<TreeUse> trees, long budgetBytes, Set<String> inUse) {
    long total = trees.stream().mapToLong(TreeUse::bytes).sum();
    List<String> out = new ArrayList<>();
    List<TreeUse> oldestFirst = trees.stream()
        .sorted(Comparator.comparingLong(TreeUse::lastUsedMs).thenComparing(TreeUse::key)).toList();
    for (TreeUse t : oldestFirst) {
      if (total <= budgetBytes) {
        break;
      }
      if (!inUse.contains(t.key())) {
        out.add(t.key());
        total -= t.bytes();
      }
    }
    return out;
  }
}
