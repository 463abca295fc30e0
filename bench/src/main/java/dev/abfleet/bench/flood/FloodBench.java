package dev.abfleet.bench.flood;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.KnownLength;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Three clients of one controller, each its own connection and API token id (the rate limit's
 * key): a well-behaved one calling at a steady rate and timing each call, a flooder calling as
 * fast as its threads can, and one that sends a single oversized message.
 */
public final class FloodBench {
  private final int port;

  public FloodBench(int port) {
    this.port = port;
  }

  /**
   * @param ids experiments the well-behaved client submitted (one per second), to check after
   */
  public record Polite(Latencies latencies, List<String> ids) {}

  /** @param accepted calls answered OK; limited: refused RESOURCE_EXHAUSTED; other: any other failure */
  public record Flood(long accepted, long limited, long other) {}

  /** @param status the code the controller answered; millis from send to answer */
  public record Huge(Status.Code status, String description, double millis) {}

  /** The well-behaved client alone for {@code length}, at {@code perSecond} calls. */
  public Polite polite(Duration length, int perSecond, String tag) throws InterruptedException {
    ManagedChannel channel = channel();
    try {
      ExperimentServiceBlockingStub stub = withToken(channel, "abf_00000000beef_polite");
      List<String> ids = new ArrayList<>();
      List<Double> millis = new ArrayList<>();
      int errors = 0;
      long periodNanos = 1_000_000_000L / perSecond;
      long start = System.nanoTime();
      long end = start + length.toNanos();
      for (long i = 0, next = start; next < end; i++, next = start + i * periodNanos) {
        sleepUntil(next);
        long t0 = System.nanoTime();
        try {
          call(stub, i, perSecond, tag, ids);
          millis.add((System.nanoTime() - t0) / 1e6);
        } catch (StatusRuntimeException e) {
          errors++;
        }
      }
      return new Polite(new Latencies(millis.stream().mapToDouble(Double::doubleValue).toArray(), errors), ids);
    } finally {
      channel.shutdownNow();
    }
  }

  /** One call a tick, in turn: ListHosts, ListExperiments, GetExperiment; a Submit each second. */
  private static void call(ExperimentServiceBlockingStub stub, long i, int perSecond, String tag,
      List<String> ids) {
    ExperimentServiceBlockingStub timed = stub.withDeadlineAfter(10, TimeUnit.SECONDS);
    if (i % perSecond == 0) {
      String id = "flood-" + tag + "-" + ids.size();
      timed.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id).setSpec(spec()).build());
      ids.add(id);
      return;
    }
    switch ((int) (i % 3)) {
      case 0 -> timed.listHosts(ListHostsRequest.getDefaultInstance());
      case 1 -> timed.listExperiments(ListExperimentsRequest.newBuilder().setPageSize(20).build());
      default -> {
        if (!ids.isEmpty()) {
          timed.getExperiment(GetExperimentRequest.newBuilder().setExperimentId(ids.get(ids.size() - 1)).build());
        } else {
          timed.listHosts(ListHostsRequest.getDefaultInstance());
        }
      }
    }
  }

  /** Starts {@code threads} flooding threads on one connection; stop them with the returned handle. */
  public FloodHandle flood(int threads) {
    ManagedChannel channel = channel();
    ExperimentServiceBlockingStub stub = withToken(channel, "abf_f100df100df1_flood");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong accepted = new AtomicLong();
    AtomicLong limited = new AtomicLong();
    AtomicLong other = new AtomicLong();
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        while (!stop.get()) {
          try {
            stub.withDeadlineAfter(10, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance());
            accepted.incrementAndGet();
          } catch (StatusRuntimeException e) {
            (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED ? limited : other).incrementAndGet();
          }
        }
      }, "flood-" + t);
      thread.setDaemon(true);
      thread.start();
      running.add(thread);
    }
    return new FloodHandle(stop, running, channel, accepted, limited, other);
  }

  /** The flooding threads; {@link #stop()} ends them and returns the counts. */
  public record FloodHandle(AtomicBoolean stopFlag, List<Thread> threads, ManagedChannel channel,
      AtomicLong accepted, AtomicLong limited, AtomicLong other) {
    public Flood stop() throws InterruptedException {
      stopFlag.set(true);
      for (Thread t : threads) {
        t.join(15_000);
      }
      channel.shutdownNow();
      return new Flood(accepted.get(), limited.get(), other.get());
    }
  }

  /**
   * Sends one SubmitExperiment call whose message is {@code mib} MiB of zeros, on its own
   * connection. The bytes are made as they are sent, so the oversized message costs this process
   * no memory (the controller runs in it) and the controller sees what a remote client would send.
   */
  public Huge huge(int mib) {
    ManagedChannel channel = channel();
    try {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer abf_0000000b16b1_huge");
      Channel withToken = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
      MethodDescriptor<InputStream, SubmitExperimentResponse> raw = MethodDescriptor
          .<InputStream, SubmitExperimentResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(ExperimentServiceGrpc.getSubmitExperimentMethod().getFullMethodName())
          .setRequestMarshaller(new RawBytes())
          .setResponseMarshaller(ProtoUtils.marshaller(SubmitExperimentResponse.getDefaultInstance()))
          .build();
      long t0 = System.nanoTime();
      try {
        ClientCalls.blockingUnaryCall(withToken, raw, CallOptions.DEFAULT.withDeadlineAfter(60, TimeUnit.SECONDS),
            new Zeros((long) mib << 20));
        return new Huge(Status.Code.OK, "", (System.nanoTime() - t0) / 1e6);
      } catch (StatusRuntimeException e) {
        return new Huge(e.getStatus().getCode(), String.valueOf(e.getStatus().getDescription()),
            (System.nanoTime() - t0) / 1e6);
      }
    } finally {
      channel.shutdownNow();
    }
  }

  /** A message body passed through as it is. */
  private static final class RawBytes implements MethodDescriptor.Marshaller<InputStream> {
    @Override
    public InputStream stream(InputStream value) {
      return value;
    }

    @Override
    public InputStream parse(InputStream stream) {
      return stream;
    }
  }

  /** {@code length} zero bytes, produced as read; its length is known, so gRPC frames it at once. */
  private static final class Zeros extends InputStream implements KnownLength {
    private long left;

    Zeros(long length) {
      this.left = length;
    }

    @Override
    public int read() {
      if (left == 0) {
        return -1;
      }
      left--;
      return 0;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      java.util.Arrays.fill(b, off, off + n, (byte) 0);
      left -= n;
      return n;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, left);
    }
  }

  /** The ids of {@code ids} the controller no longer knows (should be none). */
  public List<String> missing(List<String> ids) {
    ManagedChannel channel = channel();
    try {
      ExperimentServiceBlockingStub stub = withToken(channel, "abf_00000000beef_polite");
      List<String> missing = new ArrayList<>();
      for (String id : ids) {
        try {
          stub.withDeadlineAfter(10, TimeUnit.SECONDS)
              .getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build());
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
            throw e;
          }
          missing.add(id);
        }
        // Stay under the per-client rate whatever the number of ids.
        sleepUntil(System.nanoTime() + 25_000_000L);
      }
      return missing;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      channel.shutdownNow();
    }
  }

  private ManagedChannel channel() {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  private static ExperimentServiceBlockingStub withToken(ManagedChannel channel, String token) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return ExperimentServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** Two arms on a host nobody has: the experiment waits in line, which is all the bench needs. */
  public static ExperimentSpec spec() {
    return ExperimentSpec.newBuilder().setName("flood")
        .addArms(arm("base", "baseline", "a")).addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setPolicy(Policy.newBuilder().setPairs(6).setSeed(1))
        .build();
  }

  private static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name))).build();
  }

  private static void sleepUntil(long nanos) throws InterruptedException {
    long left = nanos - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }
}
