package dev.abfleet.testkit;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunStarted;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A scripted worker on the real gRPC stream: its boots take {@code bootMs} of wall time, one at a
 * time, as a real host's would, and report fixed samples, or an INFRA failure for the runs a
 * predicate picks (its hypervisor binary "missing"); it honours Cancel like the worker's
 * BlockExecutor (after the current boot, or now).
 */
public final class PacedWorker implements AutoCloseable {
  /** The message of the INFRA failures it reports. */
  public static final String INFRA_MESSAGE = "qemu-system-x86_64: not found";

  /** One boot as it happened: which run, and when it started and ended (ms since the epoch). */
  public record BootLog(String experimentId, String blockId, String runId, long startMs, long endMs) {}

  /**
   * What its Hello says: one hypervisor with one accelerator, the host architecture, whether it
   * builds guest images.
   */
  public record Identity(String hypervisor, String accelerator, String arch, boolean buildsGuestImages) {
    /** QEMU with TCG on x86_64. */
    public static final Identity QEMU_TCG = new Identity("qemu", "tcg", "x86_64", false);

    /** A sim host of this architecture that builds guest images, as a sim worker says. */
    public static Identity sim(String arch) {
      return new Identity("sim", "sim", arch, true);
    }
  }

  public final String hostId;
  public final List<BootLog> boots = new CopyOnWriteArrayList<>();
  public final List<Cancel> cancels = new CopyOnWriteArrayList<>();

  private final Identity identity;
  private final long bootMs;
  private final Predicate<RunAssignment> infraFails;
  private final ManagedChannel channel;
  private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService vm = Executors.newSingleThreadExecutor();
  private final Set<String> stopAfterBoot = ConcurrentHashMap.newKeySet();
  private final Set<String> killed = ConcurrentHashMap.newKeySet();
  private StreamObserver<WorkerMessage> requests;

  /** @param infraFails boots for which the worker reports an INFRA failure instead of samples */
  public PacedWorker(int port, String hostId, long bootMs, Predicate<RunAssignment> infraFails) {
    this(port, hostId, Identity.QEMU_TCG, bootMs, infraFails);
  }

  public PacedWorker(int port, String hostId, Identity identity, long bootMs, Predicate<RunAssignment> infraFails) {
    this(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build(), hostId, identity, bootMs,
        infraFails);
  }

  /** A worker on {@code channel} (e.g. in-process to a controller in this JVM); it owns the channel. */
  public PacedWorker(ManagedChannel channel, String hostId, long bootMs, Predicate<RunAssignment> infraFails) {
    this(channel, hostId, Identity.QEMU_TCG, bootMs, infraFails);
  }

  public PacedWorker(ManagedChannel channel, String hostId, Identity identity, long bootMs,
      Predicate<RunAssignment> infraFails) {
    this.hostId = hostId;
    this.identity = identity;
    this.bootMs = bootMs;
    this.infraFails = infraFails;
    this.channel = channel;
  }

  /** A QEMU/TCG host whose every boot reports samples, connected. */
  public static PacedWorker connect(int port, String hostId, long bootMs) {
    return new PacedWorker(port, hostId, bootMs, r -> false).start();
  }

  /** As {@link #connect(int, String, long)}, on {@code channel}. */
  public static PacedWorker connect(ManagedChannel channel, String hostId, long bootMs) {
    return new PacedWorker(channel, hostId, bootMs, r -> false).start();
  }

  /** Connects, says hello and starts its heartbeats. */
  public PacedWorker start() {
    requests = WorkerServiceGrpc.newStub(channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(ControllerMessage m) {
        if (m.hasAssignment()) {
          BlockAssignment block = m.getAssignment();
          vm.execute(() -> run(block));
        } else if (m.hasCancel()) {
          cancels.add(m.getCancel());
          (m.getCancel().getAfterCurrentBoot() ? stopAfterBoot : killed).add(m.getCancel().getBlockId());
        }
      }

      @Override
      public void onError(Throwable t) {
        heartbeats.shutdownNow();
      }

      @Override
      public void onCompleted() {
        heartbeats.shutdownNow();
      }
    });
    send(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(hostId)
        .setArch(identity.arch()).setCpus(2).setMemoryMib(4096).setBuildsGuestImages(identity.buildsGuestImages())
        .addHypervisors(HypervisorCapability.newBuilder().setName(identity.hypervisor())
            .addAccelerators(identity.accelerator())))
        .build());
    heartbeats.scheduleAtFixedRate(() -> send(WorkerMessage.newBuilder()
        .setHeartbeat(Heartbeat.getDefaultInstance()).build()), 50, 100, TimeUnit.MILLISECONDS);
    return this;
  }

  private void run(BlockAssignment block) {
    for (RunAssignment run : block.getRunsList()) {
      if (stopAfterBoot.contains(block.getBlockId()) || killed.contains(block.getBlockId())) {
        break;
      }
      send(WorkerMessage.newBuilder().setRunStarted(RunStarted.newBuilder().setRunId(run.getRunId())
          .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())).build());
      long start = System.currentTimeMillis();
      try {
        Thread.sleep(bootMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (killed.contains(block.getBlockId())) {
        return;
      }
      boots.add(new BootLog(block.getExperimentId(), block.getBlockId(), run.getRunId(), start,
          System.currentTimeMillis()));
      send(report(block, run));
    }
    if (!killed.contains(block.getBlockId())) {
      send(WorkerMessage.newBuilder().setBlockFinished(BlockFinished.newBuilder()
          .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())).build());
    }
  }

  private WorkerMessage report(BlockAssignment block, RunAssignment run) {
    RunTelemetry telemetry = RunTelemetry.newBuilder().setHostId(hostId).setHypervisor(identity.hypervisor())
        .setAccelerator(identity.accelerator()).setBootMs(bootMs / 4).setRunMs(bootMs).build();
    if (infraFails.test(run)) {
      return WorkerMessage.newBuilder().setRunFailure(RunFailure.newBuilder()
          .setRunId(run.getRunId()).setExperimentId(block.getExperimentId())
          .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())
          .setKind(FailureKind.INFRA).setMessage(INFRA_MESSAGE).setTelemetry(telemetry)).build();
    }
    RunResult.Builder r = RunResult.newBuilder().setRunId(run.getRunId())
        .setExperimentId(block.getExperimentId()).setBlockId(block.getBlockId())
        .setLeaseEpoch(block.getLeaseEpoch()).setTelemetry(telemetry);
    for (int i = 0; i < 3; i++) {
      r.addSamples(MetricSample.newBuilder().setMetric("metadata_stat")
          .setValue(30000 * (1 + 0.01 * i)).setUnit("ops/s").setBetter("higher").setIteration(i));
    }
    return WorkerMessage.newBuilder().setRunResult(r).build();
  }

  /** Sends {@code message} on its stream; a closed stream swallows it. */
  public synchronized void send(WorkerMessage message) {
    try {
      requests.onNext(message);
    } catch (RuntimeException closed) {
      // The stream is gone; the test looks at the controller's side.
    }
  }

  @Override
  public void close() {
    heartbeats.shutdownNow();
    vm.shutdownNow();
    channel.shutdownNow();
  }
}
