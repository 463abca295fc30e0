package dev.abfleet.controller.artifact;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.abfleet.controller.artifact.StoreException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The controller's content-addressed artifact store. Layout: {@code <root>/sha256/<hex>} for
 * complete, verified artifacts; {@code <root>/partial/<hex>} for the prefix of an upload in
 * progress or interrupted (the next upload resumes it). An artifact becomes visible only after
 * the whole file hashed to its name, by an atomic rename.
 *
 * <p>Size: everything held (complete files, partial prefixes, and the declared size of uploads
 * in progress) stays under {@code maxBytes}; making room evicts the least recently used entries
 * (last upload, status hit or read) that nobody is reading or writing.
 */
public final class ArtifactStore {

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  /** One artifact, complete or partial. {@code lastUse} is a logical clock. */
  private static final class Entry {
    final String hex;
    boolean complete;
    long bytes;
    long reserved;
    long lastUse;
    int readers;
    boolean writing;

    Entry(String hex) {
      this.hex = hex;
    }

    long held() {
      return Math.max(bytes, reserved);
    }

    boolean inUse() {
      return readers > 0 || writing;
    }
  }

  private final Path complete;
  private final Path partial;
  private final long maxBytes;
  private final long maxUploadBytes;
  private final Map<String, Entry> entries = new HashMap<>();
  private long clock;

  /**
   * Opens (creating) the store at {@code settings.root()} and indexes what it holds, oldest
   * modification first.
   *
   * @throws UncheckedIOException the directory cannot be created or read
   */
  public ArtifactStore(ArtifactStoreSettings settings) {
    this.maxBytes = settings.maxBytes();
    this.maxUploadBytes = settings.maxUploadBytes();
    this.complete = settings.root().resolve("sha256");
    this.partial = settings.root().resolve("partial");
    try {
      List<Path> found = new ArrayList<>();
      found.addAll(list(complete));
      found.addAll(list(partial));
      found.sort(Comparator.comparing(ArtifactStore::mtime));
      for (Path p : found) {
        Entry e = entries.computeIfAbsent(p.getFileName().toString(), Entry::new);
        e.complete |= p.getParent().equals(complete);
        e.bytes = Files.size(p);
        e.lastUse = ++clock;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the artifact store at " + settings.root() + ": " + e.getMessage()
          + "; check controller.artifacts.path in fleet.yaml and its permissions", e);
    }
  }

  /**
   * What the store holds of an artifact.
   *
   * @param heldBytes the size when complete, else the partial prefix's length
   */
  public record Status(boolean complete, long heldBytes, long maxBytes) {}

  /** The cap in bytes. */
  public long maxBytes() {
    return maxBytes;
  }

  /** Bytes held now, reservations of uploads in progress included. */
  public synchronized long usedBytes() {
    return entries.values().stream().mapToLong(Entry::held).sum();
  }

  public synchronized Status status(String sha256) throws StoreException {
    Entry e = known(checked(sha256));
    if (e == null) {
      return new Status(false, 0, maxBytes);
    }
    if (e.complete) {
      e.lastUse = ++clock;
    }
    return new Status(e.complete, e.bytes, maxBytes);
  }

  /**
   * Starts (or resumes) the upload of an artifact of {@code sizeBytes}, reserving its room.
   *
   * @throws StoreException EXISTS, BUSY, NO_ROOM, INVALID
   */
  public synchronized Upload beginUpload(String sha256, long sizeBytes) throws StoreException {
    String hex = checked(sha256);
    if (sizeBytes < 0) {
      throw new StoreException(Kind.INVALID, "size_bytes " + Long.toUnsignedString(sizeBytes) + " is past any"
          + " artifact (negative as a signed number); send the artifact's size in bytes");
    }
    if (sizeBytes > maxBytes) {
      throw new StoreException(Kind.NO_ROOM, "artifact " + hex + " is " + sizeBytes + " bytes, larger than the"
          + " controller's artifact store cap of " + maxBytes + " bytes; raise controller.artifacts.max_bytes in"
          + " fleet.yaml");
    }
    Entry e = known(hex);
    if (sizeBytes > maxUploadBytes) {
      if (e != null && !e.complete && !e.writing) {
        discardPartial(e);
      }
      throw new StoreException(Kind.NO_ROOM, "artifact " + hex + " is " + sizeBytes + " bytes, larger than"
          + " the cap of " + maxUploadBytes + " bytes on one upload; raise controller.artifacts.max_upload_bytes"
          + " in fleet.yaml");
    }
    if (e != null && e.complete) {
      throw new StoreException(Kind.EXISTS, "artifact " + hex + " is already stored");
    }
    if (e != null && e.writing) {
      throw new StoreException(Kind.BUSY, "another upload of " + hex + " is in progress; retry when it ends");
    }
    if (e != null && e.bytes > sizeBytes) {
      discardPartial(e);
      e = null;
    }
    long have = e == null ? 0 : e.held();
    makeRoom(sizeBytes - have, hex);
    Entry entry = e != null ? e : new Entry(hex);
    entries.put(hex, entry);
    entry.writing = true;
    entry.reserved = sizeBytes;
    entry.lastUse = ++clock;
    return new Upload(entry, sizeBytes);
  }

  /**
   * Opens a complete artifact for reading; it cannot be evicted until the read is closed.
   *
   * @throws StoreException NOT_FOUND
   */
  public synchronized Read open(String sha256) throws StoreException {
    String hex = checked(sha256);
    Entry e = known(hex);
    if (e == null || !e.complete) {
      throw new StoreException(Kind.NOT_FOUND, "artifact " + hex + " is not in the controller's store (never"
          + " uploaded, or evicted to stay under controller.artifacts.max_bytes); upload it again");
    }
    try {
      FileChannel ch = FileChannel.open(complete.resolve(hex), StandardOpenOption.READ);
      e.readers++;
      e.lastUse = ++clock;
      return new Read(e, ch);
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot read artifact " + hex + ": " + ex.getMessage(), ex);
    }
  }

  /** An upload in progress: appends at the end of the held prefix. Close it in every case. */
  public final class Upload implements AutoCloseable {
    private final Entry entry;
    private final long size;
    private final FileChannel out;
    private boolean closed;

    private Upload(Entry entry, long size) {
      this.entry = entry;
      this.size = size;
      try {
        Files.createDirectories(partial);
        Files.createDirectories(complete);
        this.out = FileChannel.open(partial.resolve(entry.hex), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + partial.resolve(entry.hex) + ": " + e.getMessage(), e);
      }
    }

    /** Bytes held so far: where the next chunk must start. */
    public long heldBytes() {
      synchronized (ArtifactStore.this) {
        return entry.bytes;
      }
    }

    public long sizeBytes() {
      return size;
    }

    /** @throws StoreException BAD_OFFSET: not where the prefix ends, or past the declared size */
    public void append(long offset, ByteString data) throws StoreException {
      long held = heldBytes();
      if (offset != held) {
        throw new StoreException(Kind.BAD_OFFSET, "chunk at offset " + offset + " of " + entry.hex
            + " does not continue the " + held + " bytes held; send from offset " + held);
      }
      if (held + data.size() > size) {
        throw new StoreException(Kind.BAD_OFFSET, "chunk at offset " + offset + " of " + entry.hex + " ends past the"
            + " declared size of " + size + " bytes; declare the artifact's whole size in size_bytes");
      }
      try {
        ByteBuffer buf = data.asReadOnlyByteBuffer();
        while (buf.hasRemaining()) {
          out.write(buf);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the upload of " + entry.hex + ": " + e.getMessage(), e);
      }
      synchronized (ArtifactStore.this) {
        entry.bytes += data.size();
      }
    }

    /**
     * Checks the whole upload against its sha256 and makes it visible.
     *
     * @throws StoreException BAD_OFFSET when bytes are missing; HASH_MISMATCH (the upload is discarded)
     */
    public void finish() throws StoreException {
      if (heldBytes() != size) {
        throw new StoreException(Kind.BAD_OFFSET, "upload of " + entry.hex + " holds " + heldBytes() + " of "
            + size + " bytes; send the rest from offset " + heldBytes());
      }
      Path from = partial.resolve(entry.hex);
      try {
        out.force(false);
        String actual = sha256(from);
        if (!actual.equals(entry.hex)) {
          synchronized (ArtifactStore.this) {
            closeLocked();
            discardPartial(entry);
          }
          throw new StoreException(Kind.HASH_MISMATCH, "the uploaded bytes hash to " + actual + ", not " + entry.hex
              + "; the upload was discarded: check the file and send it again");
        }
        try {
          Files.move(from, complete.resolve(entry.hex), StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(from, complete.resolve(entry.hex), StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot store the upload of " + entry.hex + ": " + e.getMessage(), e);
      }
      synchronized (ArtifactStore.this) {
        entry.complete = true;
        entry.lastUse = ++clock;
      }
    }

    /** Ends this upload; an unfinished prefix stays for a later one to resume. */
    @Override
    public void close() {
      synchronized (ArtifactStore.this) {
        closeLocked();
      }
    }

    private void closeLocked() {
      if (closed) {
        return;
      }
      closed = true;
      entry.writing = false;
      entry.reserved = 0;
      try {
        out.close();
      } catch (IOException e) {
        // nothing was lost: the bytes counted were written
      }
      if (!entry.complete && entry.bytes == 0) {
        // A refused first chunk leaves nothing to resume: no empty file stays behind.
        discardPartial(entry);
      }
    }
  }

  /** A read of a complete artifact; the artifact is not evicted until closed. */
  public final class Read implements AutoCloseable {
    private final Entry entry;
    private final FileChannel ch;
    private boolean closed;

    private Read(Entry entry, FileChannel ch) {
      this.entry = entry;
      this.ch = ch;
    }

    public long sizeBytes() {
      synchronized (ArtifactStore.this) {
        return entry.bytes;
      }
    }

    /** Up to {@code max} bytes from {@code offset}; empty at the end. */
    public ByteString read(long offset, int max) throws IOException {
      int len = (int) Math.max(0, Math.min(max, sizeBytes() - offset));
      ByteBuffer buf = ByteBuffer.allocate(len);
      while (buf.hasRemaining()) {
        if (ch.read(buf, offset + buf.position()) < 0) {
          throw new IOException("artifact " + entry.hex + " ended early");
        }
      }
      buf.flip();
      // A fresh buffer per read, never written again: wrapping it saves a copy of every MiB.
      return UnsafeByteOperations.unsafeWrap(buf);
    }

    @Override
    public void close() {
      synchronized (ArtifactStore.this) {
        if (closed) {
          return;
        }
        closed = true;
        entry.readers--;
      }
      try {
        ch.close();
      } catch (IOException e) {
        // read-only: nothing to lose
      }
    }
  }

  /**
   * The entry of {@code hex}; a complete file this store did not index (another controller node
   * sharing the directory stored it) is adopted, so that nodes sharing
   * {@code controller.artifacts.path} serve each other's uploads.
   */
  private Entry known(String hex) {
    Entry e = entries.get(hex);
    Path file = complete.resolve(hex);
    if (e == null && Files.isRegularFile(file)) {
      try {
        e = new Entry(hex);
        e.complete = true;
        e.bytes = Files.size(file);
        e.lastUse = ++clock;
        entries.put(hex, e);
      } catch (IOException ex) {
        return null;
      }
    }
    return e;
  }

  /** Evicts idle entries, least recently used first, until {@code bytes} more fit. */
  private void makeRoom(long bytes, String forHex) throws StoreException {
    long used = usedBytes();
    if (used + bytes <= maxBytes) {
      return;
    }
    List<Entry> idle = entries.values().stream().filter(e -> !e.inUse() && !e.hex.equals(forHex))
        .sorted(Comparator.comparingLong(e -> e.lastUse)).toList();
    for (Entry e : idle) {
      if (used + bytes <= maxBytes) {
        break;
      }
      used -= e.held();
      evict(e);
    }
    if (used + bytes > maxBytes) {
      throw new StoreException(Kind.NO_ROOM, "the controller's artifact store cannot make room for " + bytes
          + " bytes of " + forHex + ": " + used + " of its " + maxBytes + " bytes are being read or written;"
          + " retry later or raise controller.artifacts.max_bytes in fleet.yaml");
    }
  }

  private void evict(Entry e) {
    try {
      Files.deleteIfExists((e.complete ? complete : partial).resolve(e.hex));
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot evict artifact " + e.hex + ": " + ex.getMessage(), ex);
    }
    entries.remove(e.hex);
  }

  private void discardPartial(Entry e) {
    try {
      Files.deleteIfExists(partial.resolve(e.hex));
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot delete the partial upload of " + e.hex + ": " + ex.getMessage(), ex);
    }
    entries.remove(e.hex);
  }

  private static String checked(String sha256) throws StoreException {
    String hex = sha256 == null ? "" : sha256.toLowerCase(Locale.ROOT);
    if (!SHA256.matcher(hex).matches()) {
      // The name becomes a file name: only 64 hex digits pass, so no '/', '..' or NUL reaches the disk.
      String shown = String.valueOf(sha256).replaceAll("\\p{Cntrl}", "?");
      throw new StoreException(Kind.INVALID, "'" + (shown.length() <= 80 ? shown : shown.substring(0, 77) + "...")
          + "' is not a sha256; send the artifact's SHA-256 as 64 hex digits (what sha256sum prints)");
    }
    return hex;
  }

  /** The hash-named files in {@code dir}; none when it does not exist (created by the first upload). */
  private static List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        if (SHA256.matcher(p.getFileName().toString()).matches() && Files.isRegularFile(p)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  private static long mtime(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private static String sha256(Path file) throws IOException {
    MessageDigest d;
    try {
      d = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), d)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(d.digest());
  }
}
