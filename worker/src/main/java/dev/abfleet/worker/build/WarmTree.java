package dev.abfleet.worker.build;

import dev.abfleet.worker.artifact.CacheFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One warm tree, {@code home/trees/<treeKey>/}: {@code src} (a git work tree whose base commit
 * is the unpatched source), {@code out} (make's objects), {@code cfg} (where configs are
 * computed), {@code run} (the current build's command outputs and log), and small record files:
 * {@code base} (the base commit; written last when the tree is prepared, so its absence means
 * "prepare again"), {@code used} (when a build last started, ms), {@code size} (bytes on disk
 * after the last build) and {@code lock} (the file lock, never deleted).
 */
record WarmTree(Path dir) {

  private static final List<String> CONTENTS = List.of("base", "used", "size", "src", "out", "cfg", "run");

  String key() {
    return dir.getFileName().toString();
  }

  Path src() {
    return dir.resolve("src");
  }

  Path out() {
    return dir.resolve("out");
  }

  Path cfg() {
    return dir.resolve("cfg");
  }

  Path run() {
    return dir.resolve("run");
  }

  Path lockFile() {
    return dir.resolve("lock");
  }

  /** True when nothing has been compiled in {@code out} yet: it holds at most the .config. */
  boolean outIsFresh() throws IOException {
    if (!Files.isDirectory(out())) {
      return true;
    }
    try (Stream<Path> entries = Files.list(out())) {
      return entries.allMatch(p -> p.getFileName().toString().equals(".config"));
    }
  }

  /** The base commit of a prepared tree, or null when the tree must be prepared (again). */
  String base() {
    return read("base");
  }

  void setBase(String commit) throws IOException {
    write("base", commit);
  }

  /** Marks the tree as not prepared, so the next build prepares it from scratch. */
  void forgetBase() throws IOException {
    Files.deleteIfExists(dir.resolve("base"));
  }

  long usedAtMs() {
    return readLong("used");
  }

  void setUsedAtMs(long ms) throws IOException {
    write("used", Long.toString(ms));
  }

  /** Bytes on disk after the last build, 0 when never measured. */
  long sizeBytes() {
    return readLong("size");
  }

  /** Measures the tree on disk and records it. */
  void measure() throws IOException {
    long bytes;
    try (Stream<Path> files = Files.walk(dir)) {
      bytes = files.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    }
    write("size", Long.toString(bytes));
  }

  /** Deletes everything but the lock file, which another builder may be waiting on. */
  void clear() throws IOException {
    for (String name : CONTENTS) {
      CacheFiles.deleteTree(dir.resolve(name));
    }
  }

  /** Empties the run directory for a new build. */
  void freshRunDir() throws IOException {
    CacheFiles.deleteTree(run());
    Files.createDirectories(run());
  }

  private long readLong(String name) {
    try {
      String s = read(name);
      return s == null ? 0 : Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private String read(String name) {
    try {
      String s = Files.readString(dir.resolve(name), StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? null : s;
    } catch (IOException e) {
      return null;
    }
  }

  private void write(String name, String value) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    Files.writeString(tmp, value + "\n", StandardCharsets.UTF_8);
    CacheFiles.moveIntoPlace(tmp, dir.resolve(name));
  }
}
