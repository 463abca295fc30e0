package dev.abfleet.worker.build;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm trees under {@code home/trees}, their locks and their eviction. A tree is locked
 * twice: by a lock per tree in this JVM (a file lock is held per process, so two threads
 * cannot tell each other apart with it) and by a file lock on its {@code lock} file (other
 * processes).
 */
final class WarmTrees {

  private static final Logger log = LoggerFactory.getLogger(WarmTrees.class);

  private final Path root;
  private final ConcurrentHashMap<String, ReentrantLock> jvmLocks = new ConcurrentHashMap<>();

  WarmTrees(Path root) {
    this.root = root;
  }

  WarmTree tree(String treeKey) {
    return new WarmTree(root.resolve(treeKey));
  }

  /** Holds a tree for one build; closing releases both locks. */
  final class Held implements AutoCloseable {
    private final ReentrantLock jvm;
    private final FileChannel channel;
    private final FileLock file;

    private Held(ReentrantLock jvm, FileChannel channel, FileLock file) {
      this.jvm = jvm;
      this.channel = channel;
      this.file = file;
    }

    @Override
    public void close() throws IOException {
      try {
        file.release();
        channel.close();
      } finally {
        jvm.unlock();
      }
    }
  }

  /** Waits until no other build, in this process or another, uses {@code tree}, and holds it. */
  Held lock(WarmTree tree) throws InterruptedException, IOException {
    ReentrantLock jvm = jvmLocks.computeIfAbsent(tree.key(), k -> new ReentrantLock());
    jvm.lockInterruptibly();
    try {
      Files.createDirectories(tree.dir());
      FileChannel channel = FileChannel.open(tree.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      try {
        return new Held(jvm, channel, channel.lock());
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      jvm.unlock();
      throw e;
    }
  }

  /** Held if nobody uses it now, else null. */
  private Held tryLock(WarmTree tree) throws IOException {
    ReentrantLock jvm = jvmLocks.computeIfAbsent(tree.key(), k -> new ReentrantLock());
    if (!jvm.tryLock()) {
      return null;
    }
    FileChannel channel = FileChannel.open(tree.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock file = channel.tryLock();
    if (file == null) {
      channel.close();
      jvm.unlock();
      return null;
    }
    return new Held(jvm, channel, file);
  }

  /**
   * Deletes the least recently used trees until all fit in {@code budgetBytes}; never
   * {@code keep}, nor a tree another build holds. Returns the keys deleted.
   */
  List<String> evict(long budgetBytes, String keep) throws IOException {
    List<TreeEviction.TreeUse> uses = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.filter(Files::isDirectory).toList()) {
        WarmTree t = new WarmTree(d);
        uses.add(new TreeEviction.TreeUse(t.key(), t.sizeBytes(), t.usedAtMs()));
      }
    }
    List<String> deleted = new ArrayList<>();
    for (String key : TreeEviction.toEvict(uses, budgetBytes, Set.of(keep))) {
      WarmTree t = tree(key);
      try (Held held = tryLock(t)) {
        if (held != null) {
          log.info("evicting warm kernel tree {} ({} bytes) to stay under {} bytes", key, t.sizeBytes(), budgetBytes);
          t.clear();
          deleted.add(key);
        }
      }
    }
    return deleted;
  }
}
