package dev.abfleet.worker.build;

import java.util.regex.Pattern;

/**
 * Counts the objects make reports compiling ({@code "  CC      fs/stat.o"}, {@code "  CC [M]  ..."})
 * in its stdout, fed in chunks as it grows; a line split across two chunks counts once.
 */
final class CompileProgress {

  private static final Pattern CC_LINE = Pattern.compile("^\\s+CC(?: \\[M\\])?\\s+\\S.*$");

  private final StringBuilder partial = new StringBuilder();
  private int objects;

  /** Adds the next chunk of output; returns the objects counted so far. */
  int feed(String chunk) {
    partial.append(chunk);
    int start = 0;
    for (int nl = partial.indexOf("\n"); nl >= 0; nl = partial.indexOf("\n", start)) {
      if (CC_LINE.matcher(partial.subSequence(start, nl)).matches()) {
        objects++;
      }
      start = nl + 1;
    }
    partial.delete(0, start);
    return objects;
  }

  int objects() {
    return objects;
  }
}
