package dev.abfleet.worker.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uploads a boot's console log to the controller's store, so that {@code abfleet experiments
 * logs} can show it from anywhere. At most the last {@link #MAX_BYTES} are kept; a log cut
 * that way starts with a line saying how much was omitted.
 */
public final class ConsoleLogs {
  private static final Logger log = LoggerFactory.getLogger(ConsoleLogs.class);

  /** Bytes of a console log kept for upload: the last 4 MiB. */
  public static final long MAX_BYTES = 4L << 20;

  private final ControllerArtifacts store;

  public ConsoleLogs(ControllerArtifacts store) {
    this.store = store;
  }

  /**
   * Uploads {@code consoleLog} (its capped copy written beside it) and returns its sha256;
   * empty when there is no log or the upload failed (logged: a missing log never fails a run).
   */
  public String upload(Path consoleLog) throws InterruptedException {
    if (consoleLog == null || !Files.isRegularFile(consoleLog)) {
      return "";
    }
    try {
      Path capped = capped(consoleLog, consoleLog.resolveSibling(consoleLog.getFileName() + ".upload"), MAX_BYTES);
      String sha = Sha256.ofFile(capped);
      store.upload(capped, sha);
      return sha;
    } catch (IOException | RuntimeException e) {
      log.warn("console log {} not uploaded: {}", consoleLog, e.getMessage());
      return "";
    }
  }

  /** Writes the last {@code max} bytes of {@code log} to {@code out}, headed by a note when cut. */
  static Path capped(Path log, Path out, long max) throws IOException {
    try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ);
        OutputStream os = Files.newOutputStream(out)) {
      long size = in.size();
      long skip = Math.max(0, size - max);
      if (skip > 0) {
        os.write(("[abfleet: console log truncated: the first " + skip + " of " + size
            + " bytes are omitted, the last " + max + " follow]\n").getBytes(StandardCharsets.UTF_8));
      }
      WritableByteChannel sink = Channels.newChannel(os);
      long pos = skip;
      while (pos < size) {
        pos += in.transferTo(pos, size - pos, sink);
      }
    }
    return out;
  }
}
