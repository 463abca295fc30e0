package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmTreesTest {

  @TempDir
  Path dir;

  private WarmTree tree(WarmTrees trees, String key, long bytes, long usedAtMs) throws Exception {
    WarmTree t = trees.tree(key);
    Files.createDirectories(t.src());
    Files.writeString(t.src().resolve("Makefile"), "x".repeat((int) bytes));
    t.setUsedAtMs(usedAtMs);
    t.setBase("abc");
    t.measure();
    return t;
  }

  @Test
  void evictsTheLeastRecentlyUsedTreesButNeverTheOneKeptAndLeavesTheirLockFiles() throws Exception {
    WarmTrees trees = new WarmTrees(dir);
    WarmTree old = tree(trees, "old", 1000, 1);
    WarmTree kept = tree(trees, "kept", 1000, 0);
    WarmTree recent = tree(trees, "recent", 1000, 3);
    Files.createFile(old.lockFile());

    assertThat(trees.evict(2500, "kept")).containsExactly("old");

    assertThat(old.src()).doesNotExist();
    assertThat(old.base()).isNull();
    assertThat(old.lockFile()).exists();
    assertThat(kept.src()).exists();
    assertThat(recent.src()).exists();
  }

  @Test
  void skipsATreeAnotherBuildHolds() throws Exception {
    WarmTrees trees = new WarmTrees(dir);
    WarmTree busy = tree(trees, "busy", 1000, 1);
    tree(trees, "current", 1000, 2);

    try (WarmTrees.Held held = trees.lock(busy)) {
      Thread t = new Thread(() -> {
        try {
          assertThat(trees.evict(1000, "current")).isEmpty();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      t.start();
      t.join();
    }

    assertThat(busy.src()).exists();
  }
}
