package dev.abfleet.worker.artifact;

import com.google.protobuf.ByteString;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import dev.abfleet.proto.fleet.v1.ArtifactServiceGrpc;
import dev.abfleet.proto.fleet.v1.ArtifactStatus;
import dev.abfleet.proto.fleet.v1.ArtifactStatusRequest;
import dev.abfleet.proto.fleet.v1.FetchArtifactRequest;
import dev.abfleet.proto.fleet.v1.UploadArtifactResponse;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client side of the controller's artifact store (ArtifactService): resumable, per-chunk
 * verified uploads and fetches. Used by clients (a spec's local files), by workers (a cache
 * miss, a boot's console log) and by {@code abfleet bench upload}.
 *
 * <p>Upload: ask how much the store holds, stream the rest in {@link Chunks#CHUNK_BYTES} chunks;
 * a chunk the store finds corrupted (DATA_LOSS) or a dropped stream is retried from where the
 * store's prefix ends, at most {@link #MAX_ATTEMPTS} times per artifact. Fetch: stream from the
 * bytes already held in the partial file; a corrupted chunk or a dropped stream resumes the same
 * way.
 */
public final class ControllerArtifacts implements ArtifactCache.RemoteSource {

  /** Calls per upload or fetch, the first included, before giving up. */
  static final int MAX_ATTEMPTS = 6;

  /**
   * TEST ONLY: system property naming a chunk index k (0 = the first MiB); an instance created
   * while it is set flips one byte of chunk k of its first upload that sends that chunk, after
   * the checksum was computed (once per instance), so that tests watch the store reject the
   * chunk and the client re-send it. Never set it in production.
   */
  public static final String CORRUPT_CHUNK_PROPERTY = "abfleet.test.corrupt-upload-chunk";

  private static final long STATUS_DEADLINE_S = 30;

  /**
   * What an upload did.
   *
   * @param sentBytes bytes sent over all attempts (0 = the store already held it)
   * @param resentChunks chunks the store rejected as corrupted and that were sent again
   */
  public record Uploaded(String sha256, long sizeBytes, long sentBytes, int resentChunks) {
    public boolean alreadyStored() {
      return sentBytes == 0;
    }
  }

  private final ArtifactServiceGrpc.ArtifactServiceBlockingStub blocking;
  private final ArtifactServiceGrpc.ArtifactServiceStub async;
  private final String target;
  /** TEST ONLY: chunk index to corrupt once; -1 = none. */
  private final long corruptChunk;
  private final AtomicBoolean corrupted = new AtomicBoolean();

  /** @param target the controller's address, for messages */
  public ControllerArtifacts(Channel channel, String target) {
    this(channel, target, corruptChunkProperty());
  }

  private ControllerArtifacts(Channel channel, String target, long corruptChunk) {
    this.blocking = ArtifactServiceGrpc.newBlockingStub(channel);
    this.async = ArtifactServiceGrpc.newStub(channel);
    this.target = target;
    this.corruptChunk = corruptChunk;
  }

  /** TEST ONLY: a client that corrupts chunk {@code index} of its first upload that sends it (see {@link #CORRUPT_CHUNK_PROPERTY}). */
  public static ControllerArtifacts corruptingOnce(Channel channel, String target, long index) {
    return new ControllerArtifacts(channel, target, index);
  }

  private static long corruptChunkProperty() {
    String k = System.getProperty(CORRUPT_CHUNK_PROPERTY);
    if (k == null || k.isBlank()) {
      return -1;
    }
    try {
      return Long.parseLong(k.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + CORRUPT_CHUNK_PROPERTY + "=" + k + ": expected a chunk index (0, 1, ...)");
    }
  }

  /** The store's status of {@code sha256}. */
  public ArtifactStatus status(String sha256) {
    return blocking.withDeadlineAfter(STATUS_DEADLINE_S, TimeUnit.SECONDS)
        .getArtifactStatus(ArtifactStatusRequest.newBuilder().setSha256(sha256).build());
  }

  /**
   * Uploads {@code file}, whose content hashes to {@code sha256}, unless the store holds it.
   *
   * @throws IOException the store refused it (cap, hash mismatch) or it failed
   *     {@link #MAX_ATTEMPTS} times; the message names the cause and the fix
   */
  public Uploaded upload(Path file, String sha256) throws IOException, InterruptedException {
    String hex = ArtifactUri.checked(sha256);
    long size = Files.size(file);
    long sent = 0;
    int resent = 0;
    StatusRuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      ArtifactStatus st;
      try {
        st = status(hex);
      } catch (StatusRuntimeException e) {
        last = e;
        if (!retryable(e.getStatus())) {
          throw failed("upload", file, e);
        }
        pause(attempt);
        continue;
      }
      if (st.getComplete()) {
        return new Uploaded(hex, size, sent, resent);
      }
      if (st.getMaxBytes() > 0 && size > st.getMaxBytes()) {
        throw new IOException("cannot upload " + file + ": it is " + size + " bytes, larger than the controller's"
            + " artifact store cap of " + st.getMaxBytes() + " bytes; raise controller.artifacts.max_bytes in the"
            + " controller's fleet.yaml");
      }
      long from = st.getHeldBytes() <= size ? st.getHeldBytes() : 0;
      try {
        UploadArtifactResponse r = send(file, hex, size, from);
        sent += size - from;
        if (r.getComplete()) {
          return new Uploaded(hex, size, sent, resent);
        }
      } catch (StatusRuntimeException e) {
        last = e;
        if (e.getStatus().getCode() == Status.Code.DATA_LOSS) {
          resent++;
        } else if (!retryable(e.getStatus())) {
          throw failed("upload", file, e);
        } else {
          pause(attempt);
        }
      }
    }
    throw new IOException("upload of " + file + " to the controller at " + target + " failed " + MAX_ATTEMPTS
        + " times (last: " + describe(last) + "); check the network and the controller's log, then submit again"
        + " (the upload resumes where it stopped)");
  }

  /**
   * Appends {@code sha256} to {@code partial} from its current length on, verifying every chunk;
   * the caller checks the whole file's hash.
   *
   * @throws IOException the store does not hold it, or the fetch failed {@link #MAX_ATTEMPTS} times
   */
  @Override
  public void fetchInto(String sha256, Path partial) throws IOException {
    String hex = ArtifactUri.checked(sha256);
    StatusRuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      long from = Files.exists(partial) ? Files.size(partial) : 0;
      try (Context.CancellableContext ctx = Context.current().withCancellation()) {
        ctx.call(() -> {
          receive(hex, from, partial);
          return null;
        });
        return;
      } catch (StatusRuntimeException e) {
        last = e;
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          throw new IOException("artifact abfleet:sha256:" + hex + " is not in the controller's store at " + target
              + " (evicted, or never uploaded); submit the experiment again so that the client uploads it", e);
        }
        if (e.getStatus().getCode() == Status.Code.OUT_OF_RANGE) {
          Files.deleteIfExists(partial);
        } else if (!retryable(e.getStatus())) {
          throw failed("fetch", partial, e);
        }
        pauseQuietly(attempt);
      } catch (CorruptChunk e) {
        pauseQuietly(attempt);
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
    throw new IOException("fetch of abfleet:sha256:" + hex + " from the controller at " + target + " failed "
        + MAX_ATTEMPTS + " times (last: " + describe(last) + "); check the network and the controller's log");
  }

  private void receive(String hex, long from, Path partial) throws IOException {
    Iterator<ArtifactChunk> chunks = blocking.fetchArtifact(
        FetchArtifactRequest.newBuilder().setSha256(hex).setOffset(from).build());
    try (OutputStream out = Files.newOutputStream(partial, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      long at = from;
      while (chunks.hasNext()) {
        ArtifactChunk c = chunks.next();
        if (c.getOffset() != at || !Chunks.intact(c)) {
          // Keep what was verified; the next attempt continues from there.
          throw new CorruptChunk();
        }
        c.getData().writeTo(out);
        at += c.getData().size();
      }
    }
  }

  private UploadArtifactResponse send(Path file, String hex, long size, long from)
      throws IOException, InterruptedException {
    CompletableFuture<UploadArtifactResponse> done = new CompletableFuture<>();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      async.uploadArtifact(new ChunkSender(ch, hex, size, from, done, this::maybeCorrupt));
      return done.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StatusRuntimeException sre) {
        throw sre;
      }
      throw Status.fromThrowable(e.getCause()).asRuntimeException();
    }
  }

  private void maybeCorrupt(ArtifactChunk.Builder c, long pos) {
    if (corruptChunk < 0 || c.getData().isEmpty() || pos != corruptChunk * Chunks.CHUNK_BYTES) {
      return;
    }
    if (corrupted.compareAndSet(false, true)) {
      byte[] bytes = c.getData().toByteArray();
      bytes[0] ^= 0x5a;
      c.setData(ByteString.copyFrom(bytes));
    }
  }

  private static final class CorruptChunk extends IOException {
    private static final long serialVersionUID = 1L;
  }

  private static boolean retryable(Status s) {
    return switch (s.getCode()) {
      // ALREADY_EXISTS and FAILED_PRECONDITION: another upload finished or moved on; the status says where.
      case UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED, CANCELLED, ALREADY_EXISTS, FAILED_PRECONDITION -> true;
      default -> false;
    };
  }

  private IOException failed(String what, Path file, StatusRuntimeException e) {
    return new IOException(what + " of " + file + " at the controller " + target + " failed: " + describe(e), e);
  }

  private static String describe(StatusRuntimeException e) {
    if (e == null) {
      return "no answer";
    }
    Status s = e.getStatus();
    return s.getCode() + (s.getDescription() == null ? "" : ": " + s.getDescription());
  }

  private static void pause(int attempt) throws InterruptedException {
    Thread.sleep(Math.min(2000, 100L << Math.min(attempt, 5)));
  }

  private static void pauseQuietly(int attempt) throws InterruptedIOException {
    try {
      pause(attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while fetching an artifact from the controller");
    }
  }
}
