package dev.abfleet.controller.grpc;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker over a real gRPC channel that answers each block with synthetic results: the arm
 * named "cand" measures metadata_stat at {@code candidateFactor} x the baseline.
 */
final class FakeWorker implements AutoCloseable {
  final String hostId;
  final List<BlockAssignment> assignments = new CopyOnWriteArrayList<>();
  final List<ControllerMessage> received = new CopyOnWriteArrayList<>();
  volatile Throwable streamError;
  volatile boolean streamCompleted;

  private final ManagedChannel channel;
  private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
  private final double candidateFactor;
  private final Random random;
  private final int answerBlocks;
  private final boolean dropMidBlock;
  private StreamObserver<WorkerMessage> requests;
  private String hypervisor = "qemu";
  private java.util.function.Predicate<String> slowArms = "cand"::equals;
  private String accelerator = "tcg";
  private volatile boolean interfered;
  private long blockMs;

  /**
   * @param answerBlocks blocks to answer; later ones are held without reply
   * @param dropMidBlock on the first block, report one boot and then drop the stream
   */
  FakeWorker(int grpcPort, String hostId, double candidateFactor, int answerBlocks, boolean dropMidBlock) {
    this(NettyChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build(), hostId, candidateFactor,
        answerBlocks, dropMidBlock);
  }

  /** A worker of {@code node}, over TCP or in-process as the node serves. */
  FakeWorker(dev.abfleet.controller.ControllerNode node, String hostId, double candidateFactor, int answerBlocks,
      boolean dropMidBlock) {
    this(ControllerNodeTest.channel(node), hostId, candidateFactor, answerBlocks, dropMidBlock);
  }

  private FakeWorker(ManagedChannel channel, String hostId, double candidateFactor, int answerBlocks,
      boolean dropMidBlock) {
    this.hostId = hostId;
    this.candidateFactor = candidateFactor;
    this.random = new Random(hostId.hashCode());
    this.answerBlocks = answerBlocks;
    this.dropMidBlock = dropMidBlock;
    this.channel = channel;
  }

  static FakeWorker connect(int port, String hostId, double candidateFactor) {
    return new FakeWorker(port, hostId, candidateFactor, Integer.MAX_VALUE, false).start();
  }

  static FakeWorker connect(dev.abfleet.controller.ControllerNode node, String hostId, double candidateFactor) {
    return new FakeWorker(node, hostId, candidateFactor, Integer.MAX_VALUE, false).start();
  }

  /** Advertises this hypervisor with this accelerator instead of qemu/tcg; call before start. */
  FakeWorker withHypervisor(String name, String accel) {
    this.hypervisor = name;
    this.accelerator = accel;
    return this;
  }

  /** Reports every boot from now on as interfered (the host busy with other processes). */
  FakeWorker interfered(boolean interfered) {
    this.interfered = interfered;
    return this;
  }

  /** Answers each block this long after it arrived instead of at once; call before start. */
  FakeWorker withBlockTime(java.time.Duration d) {
    this.blockMs = d.toMillis();
    return this;
  }

  /** Arms (by name) measured at candidateFactor instead of the arm "cand"; call before start. */
  FakeWorker withSlowArms(java.util.function.Predicate<String> arms) {
    this.slowArms = arms;
    return this;
  }

  FakeWorker start() {
    requests = WorkerServiceGrpc.newStub(channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(ControllerMessage message) {
        received.add(message);
        if (message.hasAssignment()) {
          onAssignment(message.getAssignment());
        }
      }

      @Override
      public void onError(Throwable t) {
        streamError = t;
        heartbeats.shutdownNow();
      }

      @Override
      public void onCompleted() {
        streamCompleted = true;
        heartbeats.shutdownNow();
      }
    });
    send(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(hostId)
        .setArch("x86_64").setCpus(2).setMemoryMib(4096)
        .addHypervisors(HypervisorCapability.newBuilder().setName(hypervisor).addAccelerators(accelerator)))
        .build());
    heartbeats.scheduleAtFixedRate(() -> send(WorkerMessage.newBuilder()
        .setHeartbeat(Heartbeat.getDefaultInstance()).build()), 50, 100, TimeUnit.MILLISECONDS);
    return this;
  }

  /** Sends a raw message (tests of the stream protocol). */
  synchronized void send(WorkerMessage message) {
    try {
      requests.onNext(message);
    } catch (RuntimeException closed) {
      // The stream is gone; the test looks at the controller's side.
    }
  }

  private void onAssignment(BlockAssignment block) {
    assignments.add(block);
    if (assignments.size() > answerBlocks) {
      return;
    }
    if (blockMs > 0) {
      heartbeats.schedule(() -> answer(block), blockMs, TimeUnit.MILLISECONDS);
    } else {
      answer(block);
    }
  }

  private void answer(BlockAssignment block) {
    for (RunAssignment run : block.getRunsList()) {
      send(WorkerMessage.newBuilder().setRunResult(result(block, run)).build());
      if (dropMidBlock && assignments.size() == 1) {
        drop();
        return;
      }
    }
    send(WorkerMessage.newBuilder().setBlockFinished(BlockFinished.newBuilder()
        .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())).build());
  }

  private RunResult result(BlockAssignment block, RunAssignment run) {
    RunResult.Builder r = RunResult.newBuilder().setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId()).setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch())
        .setTelemetry(RunTelemetry.newBuilder().setHostId(hostId).setHypervisor(run.getHypervisor())
            .setAccelerator(accelerator).setBootMs(900).setRunMs(4000).setKernelRelease("6.1.0"));
    if (interfered) {
      r.getTelemetryBuilder().setInterfered(true).setHostPressure(
          dev.abfleet.proto.fleet.v1.HostPressure.newBuilder().setHasPsi(true).setCpuSomeAvg10(40));
    }
    double factor = slowArms.test(run.getArm()) ? candidateFactor : 1.0;
    for (int i = 0; i < 3; i++) {
      double noise = 1 + 0.01 * random.nextGaussian();
      r.addSamples(sample("metadata_stat", 30000 * factor * noise, "ops/s", i));
      r.addSamples(sample("seq_read", 800 * (1 + 0.01 * random.nextGaussian()), "MiB/s", i));
    }
    return r.build();
  }

  private static MetricSample sample(String metric, double value, String unit, int iteration) {
    return MetricSample.newBuilder().setMetric(metric).setValue(value).setUnit(unit)
        .setBetter("higher").setIteration(iteration).build();
  }

  /** Stops sending heartbeats and keeps the stream open, as a hung worker would. */
  void fallSilent() {
    heartbeats.shutdownNow();
  }

  /** Ends the stream abruptly, as a crashed worker would. */
  void drop() {
    heartbeats.shutdownNow();
    channel.shutdownNow();
  }

  @Override
  public void close() {
    heartbeats.shutdownNow();
    channel.shutdownNow();
  }
}
