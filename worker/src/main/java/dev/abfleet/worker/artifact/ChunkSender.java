package dev.abfleet.worker.artifact;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import dev.abfleet.proto.fleet.v1.UploadArtifactResponse;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One UploadArtifact call of {@link ControllerArtifacts}: streams the file's chunks from an offset
 * while the transport is ready (flow control, so a large file never piles up in memory), then
 * half-closes; the store's answer or refusal completes {@code done}.
 */
final class ChunkSender implements ClientResponseObserver<ArtifactChunk, UploadArtifactResponse> {
  /** Sees every chunk before it is sent, with its offset (a test-only corruption hook). */
  private final BiConsumer<ArtifactChunk.Builder, Long> tamper;
  private final FileChannel ch;
  private final String hex;
  private final long size;
  private final CompletableFuture<UploadArtifactResponse> done;
  private ClientCallStreamObserver<ArtifactChunk> out;
  private long pos;
  private boolean first = true;
  private boolean closed;

  ChunkSender(FileChannel ch, String hex, long size, long from, CompletableFuture<UploadArtifactResponse> done,
      BiConsumer<ArtifactChunk.Builder, Long> tamper) {
    this.tamper = tamper;
    this.ch = ch;
    this.hex = hex;
    this.size = size;
    this.pos = from;
    this.done = done;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<ArtifactChunk> requestStream) {
    out = requestStream;
    out.setOnReadyHandler(this::pump);
  }

  private void pump() {
    try {
      while (!closed && !done.isDone() && out.isReady()) {
        if (pos >= size && !first) {
          closed = true;
          out.onCompleted();
          return;
        }
        out.onNext(next());
      }
    } catch (IOException | RuntimeException e) {
      closed = true;
      out.onError(Status.INTERNAL.withDescription("cannot read the artifact: " + e.getMessage()).asRuntimeException());
      done.completeExceptionally(e);
    }
  }

  private ArtifactChunk next() throws IOException {
    int len = (int) Math.min(Chunks.CHUNK_BYTES, size - pos);
    ByteBuffer buf = ByteBuffer.allocate(len);
    while (buf.hasRemaining()) {
      if (ch.read(buf, pos + buf.position()) < 0) {
        throw new IOException("the file shrank while it was uploaded");
      }
    }
    buf.flip();
    // A fresh buffer per chunk, never written again: wrapping it saves a copy of every MiB.
    ByteString data = UnsafeByteOperations.unsafeWrap(buf);
    ArtifactChunk.Builder c = ArtifactChunk.newBuilder().setOffset(pos).setData(data).setCrc32C(Chunks.crc32c(data));
    if (first) {
      c.setSha256(hex).setSizeBytes(size);
      first = false;
    }
    tamper.accept(c, pos);
    pos += len;
    return c.build();
  }

  @Override
  public void onNext(UploadArtifactResponse value) {
    done.complete(value);
  }

  @Override
  public void onError(Throwable t) {
    done.completeExceptionally(t);
  }

  @Override
  public void onCompleted() {
    done.completeExceptionally(Status.INTERNAL.withDescription("the store answered nothing").asRuntimeException());
  }
}
