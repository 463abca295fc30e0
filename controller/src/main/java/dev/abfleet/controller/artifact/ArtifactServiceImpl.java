package dev.abfleet.controller.artifact;

import com.google.protobuf.ByteString;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import dev.abfleet.proto.fleet.v1.ArtifactServiceGrpc;
import dev.abfleet.proto.fleet.v1.ArtifactStatus;
import dev.abfleet.proto.fleet.v1.ArtifactStatusRequest;
import dev.abfleet.proto.fleet.v1.FetchArtifactRequest;
import dev.abfleet.proto.fleet.v1.UploadArtifactResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ArtifactService at the gRPC edge: converts chunks to {@link ArtifactStore} calls and store
 * refusals to status codes ({@link #toStatus}, the one place). See artifact.proto for the
 * protocol.
 */
public final class ArtifactServiceImpl implements ArtifactServiceGrpc.AsyncService, io.grpc.BindableService {
  private static final Logger log = LoggerFactory.getLogger(ArtifactServiceImpl.class);

  /** Bytes per fetched chunk: 1 MiB, as clients upload. */
  static final int CHUNK_BYTES = 1 << 20;

  private final ArtifactStore store;

  public ArtifactServiceImpl(ArtifactStore store) {
    this.store = store;
  }

  /**
   * Requests that do not parse are answered INVALID_ARGUMENT (see {@link dev.abfleet.controller.grpc.RequestParsing}); the
   * generated base class would make this method final, so the service interface is implemented.
   */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return dev.abfleet.controller.grpc.RequestParsing.clear(ArtifactServiceGrpc.bindService(this));
  }

  /** A service over a store opened at {@code settings}. */
  public static ArtifactServiceImpl open(ArtifactStoreSettings settings) {
    return new ArtifactServiceImpl(openStore(settings));
  }

  /** The store at {@code settings}, opened (and logged) once per node: the service and the nightly runs share it. */
  public static ArtifactStore openStore(ArtifactStoreSettings settings) {
    log.info("artifact store {} (cap {} bytes)", settings.root(), settings.maxBytes());
    return new ArtifactStore(settings);
  }

  @Override
  public void getArtifactStatus(ArtifactStatusRequest req, StreamObserver<ArtifactStatus> out) {
    try {
      ArtifactStore.Status s = store.status(req.getSha256());
      out.onNext(ArtifactStatus.newBuilder().setSha256(req.getSha256()).setComplete(s.complete())
          .setHeldBytes(s.heldBytes()).setMaxBytes(s.maxBytes()).build());
      out.onCompleted();
    } catch (StoreException e) {
      out.onError(toStatus(e));
    }
  }

  @Override
  public StreamObserver<ArtifactChunk> uploadArtifact(StreamObserver<UploadArtifactResponse> out) {
    return new StreamObserver<>() {
      private ArtifactStore.Upload upload;
      private String sha256 = "";
      private boolean failed;

      @Override
      public void onNext(ArtifactChunk c) {
        if (failed) {
          return;
        }
        try {
          if (c.getData().size() > CHUNK_BYTES) {
            throw new StoreException(StoreException.Kind.INVALID, "chunk at offset " + c.getOffset() + " holds "
                + c.getData().size() + " bytes; send at most " + CHUNK_BYTES + " bytes (1 MiB) per chunk");
          }
          if (upload == null) {
            if (c.getSha256().isEmpty()) {
              throw new StoreException(StoreException.Kind.INVALID, "the first chunk of an upload must carry sha256"
                  + " and size_bytes");
            }
            upload = store.beginUpload(c.getSha256(), c.getSizeBytes());
            sha256 = c.getSha256();
          } else if (!c.getSha256().isEmpty() && !c.getSha256().equals(sha256)) {
            throw new StoreException(StoreException.Kind.INVALID, "chunk at offset " + c.getOffset() + " names "
                + dev.abfleet.model.BenchmarkChecks.quote(c.getSha256()) + " inside the upload of " + sha256
                + "; upload one artifact per call");
          }
          if (crc32c(c.getData()) != c.getCrc32C()) {
            fail(Status.DATA_LOSS.withDescription("chunk at offset " + c.getOffset() + " of " + c.getSha256()
                + " fails its CRC32C check (corrupted in transit); re-send from offset " + c.getOffset()));
            return;
          }
          upload.append(c.getOffset(), c.getData());
        } catch (StoreException e) {
          fail(toStatus(e).getStatus());
        } catch (RuntimeException e) {
          log.warn("upload failed", e);
          fail(Status.INTERNAL.withDescription(e.getMessage()));
        }
      }

      @Override
      public void onError(Throwable t) {
        // The client went away: what was written stays for a resumed upload.
        if (upload != null) {
          upload.close();
        }
      }

      @Override
      public void onCompleted() {
        if (failed) {
          return;
        }
        if (upload == null) {
          fail(Status.INVALID_ARGUMENT.withDescription("an upload needs at least one chunk"));
          return;
        }
        try {
          boolean whole = upload.heldBytes() == upload.sizeBytes();
          if (whole) {
            upload.finish();
          }
          long held = upload.heldBytes();
          upload.close();
          out.onNext(UploadArtifactResponse.newBuilder().setSha256(sha256)
              .setComplete(whole).setHeldBytes(held).build());
          out.onCompleted();
        } catch (StoreException e) {
          fail(toStatus(e).getStatus());
        } catch (RuntimeException e) {
          log.warn("upload failed", e);
          fail(Status.INTERNAL.withDescription(e.getMessage()));
        }
      }

      private void fail(Status status) {
        failed = true;
        if (upload != null) {
          upload.close();
        }
        out.onError(status.asRuntimeException());
      }
    };
  }

  @Override
  public void fetchArtifact(FetchArtifactRequest req, StreamObserver<ArtifactChunk> responses) {
    ArtifactStore.Read read;
    try {
      read = store.open(req.getSha256());
    } catch (StoreException e) {
      responses.onError(toStatus(e));
      return;
    }
    if (req.getOffset() > read.sizeBytes()) {
      read.close();
      responses.onError(Status.OUT_OF_RANGE.withDescription("offset " + req.getOffset() + " is past the end of "
          + req.getSha256() + " (" + read.sizeBytes() + " bytes); fetch from 0").asRuntimeException());
      return;
    }
    ServerCallStreamObserver<ArtifactChunk> out = (ServerCallStreamObserver<ArtifactChunk>) responses;
    Sender sender = new Sender(read, req.getSha256(), req.getOffset(), out);
    out.setOnCancelHandler(read::close);
    out.setOnReadyHandler(sender::pump);
    sender.pump();
  }

  /** Sends chunks while the transport is ready (flow control), so a large fetch never piles up in memory. */
  private static final class Sender {
    private final ArtifactStore.Read read;
    private final String sha256;
    private final ServerCallStreamObserver<ArtifactChunk> out;
    private long pos;
    private boolean done;

    Sender(ArtifactStore.Read read, String sha256, long from, ServerCallStreamObserver<ArtifactChunk> out) {
      this.read = read;
      this.sha256 = sha256;
      this.pos = from;
      this.out = out;
    }

    synchronized void pump() {
      try {
        while (!done && out.isReady() && !out.isCancelled()) {
          if (pos >= read.sizeBytes()) {
            done = true;
            read.close();
            out.onCompleted();
            return;
          }
          ByteString data = read.read(pos, CHUNK_BYTES);
          out.onNext(ArtifactChunk.newBuilder().setSha256(sha256).setSizeBytes(read.sizeBytes()).setOffset(pos)
              .setData(data).setCrc32C(crc32c(data)).build());
          pos += data.size();
        }
      } catch (IOException | UncheckedIOException e) {
        done = true;
        read.close();
        out.onError(Status.INTERNAL.withDescription("cannot read " + sha256 + ": " + e.getMessage()).asRuntimeException());
      }
    }
  }

  static int crc32c(ByteString data) {
    CRC32C crc = new CRC32C();
    crc.update(data.asReadOnlyByteBuffer());
    return (int) crc.getValue();
  }

  /** The one place where store refusals become status codes. */
  static StatusRuntimeException toStatus(StoreException e) {
    Status s = switch (e.kind()) {
      case NOT_FOUND -> Status.NOT_FOUND;
      case EXISTS -> Status.ALREADY_EXISTS;
      case NO_ROOM -> Status.RESOURCE_EXHAUSTED;
      case BUSY -> Status.ABORTED;
      case BAD_OFFSET -> Status.FAILED_PRECONDITION;
      case HASH_MISMATCH, INVALID -> Status.INVALID_ARGUMENT;
    };
    return s.withDescription(e.getMessage()).asRuntimeException();
  }
}
