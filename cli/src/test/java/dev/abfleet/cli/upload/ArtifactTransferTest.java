package dev.abfleet.cli.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.abfleet.controller.artifact.ArtifactServiceImpl;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import dev.abfleet.proto.fleet.v1.ArtifactServiceGrpc;
import dev.abfleet.proto.fleet.v1.ArtifactStatus;
import dev.abfleet.proto.fleet.v1.UploadArtifactResponse;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.Chunks;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import io.grpc.ForwardingServerCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunk protocol end to end: the controller's service and the shared client, over in-process gRPC. */
class ArtifactTransferTest {
  private static final int MIB = Chunks.CHUNK_BYTES;

  @TempDir Path dir;
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    startWithCap(64L * MIB);
  }

  private void startWithCap(long cap) throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(ServerInterceptors.intercept(
            ArtifactServiceImpl.open(new ArtifactStoreSettings(dir.resolve("store"), cap)), dropFetchOnce))
        .build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  /** When armed, ends the next FetchArtifact call with UNAVAILABLE after two chunks, as a dropped connection would. */
  private final DropFetchOnce dropFetchOnce = new DropFetchOnce();

  private static final class DropFetchOnce implements ServerInterceptor {
    final AtomicBoolean armed = new AtomicBoolean();
    final AtomicInteger fetchCalls = new AtomicInteger();

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      if (!call.getMethodDescriptor().getBareMethodName().equals("FetchArtifact")) {
        return next.startCall(call, headers);
      }
      fetchCalls.incrementAndGet();
      if (!armed.compareAndSet(true, false)) {
        return next.startCall(call, headers);
      }
      return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
        private int sent;
        private boolean closed;

        @Override
        public void sendMessage(R message) {
          if (closed) {
            return;
          }
          super.sendMessage(message);
          if (++sent == 2) {
            closed = true;
            super.close(Status.UNAVAILABLE.withDescription("connection dropped (test)"), new Metadata());
          }
        }

        @Override
        public void close(Status status, Metadata trailers) {
          if (!closed) {
            closed = true;
            super.close(status, trailers);
          }
        }

        @Override
        public boolean isReady() {
          return !closed && super.isReady();
        }
      }, headers);
    }
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void uploadResumesWhereAnEarlierUploadStopped() throws Exception {
    byte[] bytes = random(5 * MIB + 123);
    Path file = write("kernel", bytes);
    String sha = ArtifactCache.sha256(file);
    UploadArtifactResponse partial = rawUpload(sha, bytes, 0, 2, false);
    assertThat(partial.getComplete()).isFalse();
    assertThat(partial.getHeldBytes()).isEqualTo(2L * MIB);

    ControllerArtifacts.Uploaded u = client().upload(file, sha);

    assertThat(u.sentBytes()).isEqualTo(bytes.length - 2L * MIB);
    assertThat(fetched(sha)).isEqualTo(bytes);
  }

  @Test
  void storeRejectsACorruptedChunkNamingItsOffsetAndKeepsThePrefix() throws Exception {
    byte[] bytes = random(3 * MIB);
    String sha = ArtifactCache.sha256(write("kernel", bytes));

    assertThatThrownBy(() -> rawUpload(sha, bytes, 0, 3, true))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DATA_LOSS);
          assertThat(e.getStatus().getDescription()).contains("offset " + 2 * MIB).contains("CRC32C");
        });
    assertThat(client().status(sha).getHeldBytes()).isEqualTo(2L * MIB);
  }

  @Test
  void clientResendsAChunkTheStoreFoundCorrupted() throws Exception {
    byte[] bytes = random(4 * MIB + 7);
    Path file = write("kernel", bytes);
    String sha = ArtifactCache.sha256(file);

    ControllerArtifacts.Uploaded u = ControllerArtifacts.corruptingOnce(channel, "test", 2).upload(file, sha);

    assertThat(u.resentChunks()).isEqualTo(1);
    assertThat(client().status(sha).getComplete()).isTrue();
    assertThat(fetched(sha)).isEqualTo(bytes);
  }

  @Test
  void uploadWhoseBytesDoNotHashToItsNameIsRejectedAndDiscarded() throws Exception {
    Path file = write("kernel", random(MIB + 5));
    String wrong = ArtifactCache.sha256(write("other", random(10)));

    assertThatThrownBy(() -> client().upload(file, wrong))
        .isInstanceOf(IOException.class).hasMessageContaining("hash to").hasMessageContaining("send it again");
    ArtifactStatus st = client().status(wrong);
    assertThat(st.getComplete()).isFalse();
    assertThat(st.getHeldBytes()).isZero();
  }

  @Test
  void artifactAlreadyStoredIsNotSentAgain() throws Exception {
    Path file = write("kernel", random(MIB));
    String sha = ArtifactCache.sha256(file);
    client().upload(file, sha);

    assertThat(client().upload(file, sha).alreadyStored()).isTrue();
  }

  @Test
  void artifactLargerThanTheCapIsRefusedBeforeAnythingIsSent() throws Exception {
    stop();
    startWithCap(2L * MIB);
    Path file = write("big", random(3 * MIB));

    assertThatThrownBy(() -> client().upload(file, ArtifactCache.sha256(file)))
        .isInstanceOf(IOException.class).hasMessageContaining("larger than the controller's artifact store cap")
        .hasMessageContaining("controller.artifacts.max_bytes");
  }

  @Test
  void fetchResumesFromThePartialFileAndVerifiesTheWhole() throws Exception {
    byte[] bytes = random(3 * MIB + 99);
    Path file = write("kernel", bytes);
    String sha = ArtifactCache.sha256(file);
    client().upload(file, sha);
    Path partial = dir.resolve("fetched.part");
    Files.write(partial, Arrays.copyOf(bytes, MIB + 10));

    client().fetchInto(sha, partial);

    assertThat(Files.readAllBytes(partial)).isEqualTo(bytes);
  }

  @Test
  void fetchResumesAfterTheStreamDropped() throws Exception {
    byte[] bytes = random(5 * MIB + 1);
    Path file = write("kernel", bytes);
    String sha = ArtifactCache.sha256(file);
    client().upload(file, sha);
    dropFetchOnce.armed.set(true);
    dropFetchOnce.fetchCalls.set(0);

    assertThat(fetched(sha)).isEqualTo(bytes);
    assertThat(dropFetchOnce.fetchCalls.get()).as("the dropped call and the resumed one").isEqualTo(2);
  }

  @Test
  void workerCacheFetchesAControllerUriAndSaysSoWhenTheStoreLacksIt() throws Exception {
    byte[] bytes = random(2 * MIB);
    Path file = write("kernel", bytes);
    String sha = ArtifactCache.sha256(file);
    ArtifactCache cache = new ArtifactCache(dir.resolve("worker"), 64L * MIB, client());

    assertThatThrownBy(() -> cache.stage(sha, "abfleet:sha256:" + sha))
        .hasMessageContaining("not in the controller's store");
    client().upload(file, sha);
    Path staged = cache.stage(sha, "abfleet:sha256:" + sha);

    assertThat(Files.readAllBytes(staged)).isEqualTo(bytes);
  }

  private ControllerArtifacts client() {
    return new ControllerArtifacts(channel, "test");
  }

  /** Sends chunks [0, chunks) of {@code bytes} by hand; {@code corruptLast} breaks the last one's checksum. */
  private UploadArtifactResponse rawUpload(String sha, byte[] bytes, int firstChunk, int chunks, boolean corruptLast)
      throws Exception {
    CompletableFuture<UploadArtifactResponse> done = new CompletableFuture<>();
    StreamObserver<ArtifactChunk> out = ArtifactServiceGrpc.newStub(channel).uploadArtifact(new StreamObserver<>() {
      @Override
      public void onNext(UploadArtifactResponse value) {
        done.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {}
    });
    for (int i = firstChunk; i < chunks; i++) {
      int from = i * MIB;
      ByteString data = ByteString.copyFrom(bytes, from, Math.min(MIB, bytes.length - from));
      int crc = Chunks.crc32c(data);
      out.onNext(ArtifactChunk.newBuilder().setSha256(sha).setSizeBytes(bytes.length).setOffset(from).setData(data)
          .setCrc32C(corruptLast && i == chunks - 1 ? crc ^ 1 : crc).build());
    }
    out.onCompleted();
    try {
      return done.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw (Exception) e.getCause();
    }
  }

  private byte[] fetched(String sha) throws IOException {
    Path p = dir.resolve("fetch-" + System.nanoTime());
    client().fetchInto(sha, p);
    return Files.readAllBytes(p);
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    SplittableRandom r = new SplittableRandom(n);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }
}
