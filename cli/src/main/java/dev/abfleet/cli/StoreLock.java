package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a controller's H2 store directory, held until {@link #close()} or the
 * process ends. H2 allows one process per database file, and a second controller on the same
 * file would wait for it without a word (H2 reports the lock only in its trace file), so the
 * second one stops here instead, naming the process that holds the store.
 */
public final class StoreLock implements AutoCloseable {
  static final String FILE = "controller.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private StoreLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates {@code dir} if missing and locks it.
   *
   * @param what how the user named the directory, for messages, e.g. "--home /srv/abfleet"
   * @param fix what to do when another controller holds it, e.g. "choose another --home"
   * @throws Problem when the directory cannot be created or another process holds it
   */
  public static StoreLock acquire(Path dir, String what, String fix) {
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.exists(p) && !Files.isDirectory(p)) {
        throw new Problem(what + ": " + p + " is a file, not a directory; pass a directory (it is"
            + " created if missing)");
      }
    }
    FileChannel ch;
    try {
      Files.createDirectories(dir);
      ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new Problem(what + ": cannot write in " + dir + " (" + reason(e) + "); pass a"
          + " directory you can write");
    }
    try {
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this process
      }
      if (lock == null) {
        String pid = new String(Files.readAllBytes(dir.resolve(FILE)), StandardCharsets.US_ASCII).strip();
        ch.close();
        throw new Problem(what + " is in use by another controller"
            + (pid.matches("[0-9]{1,10}") ? " (pid " + pid + ")" : "") + "; stop it or " + fix);
      }
      ch.truncate(0);
      ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
      return new StoreLock(ch, lock);
    } catch (IOException e) {
      closeQuietly(ch);
      throw new Problem(what + ": cannot lock " + dir.resolve(FILE) + " (" + e.getMessage() + ")");
    }
  }

  private static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException f) {
      return "cannot create " + f.getFile();
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException ignored) {
      // closing the channel releases it too
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // nothing held any more
    }
  }
}
