package dev.abfleet.cli.dashboard;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunStarted;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import dev.abfleet.worker.HostFacts;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker that looks like a sim host but whose every boot fails for the host's sake (INFRA:
 * its hypervisor binary is missing), so the controller quarantines it after a few in a row.
 * The sim workers cannot do this: their injected failures are the arm's (a kernel panic).
 */
final class InfraFailingWorker implements AutoCloseable {
  static final String MESSAGE = "qemu-system-x86_64: not found";

  private final String hostId;
  private final ManagedChannel channel;
  private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService vm = Executors.newSingleThreadExecutor();
  private StreamObserver<WorkerMessage> requests;

  private InfraFailingWorker(int port, String hostId) {
    this.hostId = hostId;
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  static InfraFailingWorker connect(int port, String hostId) {
    InfraFailingWorker w = new InfraFailingWorker(port, hostId);
    w.requests = WorkerServiceGrpc.newStub(w.channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(ControllerMessage m) {
        if (m.hasAssignment()) {
          w.vm.execute(() -> w.fail(m.getAssignment()));
        }
      }

      @Override
      public void onError(Throwable t) {
        w.heartbeats.shutdownNow();
      }

      @Override
      public void onCompleted() {
        w.heartbeats.shutdownNow();
      }
    });
    w.send(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(hostId)
        .setArch(HostFacts.probe().arch()).setCpus(2).setMemoryMib(4096).setBuildsGuestImages(true)
        .addHypervisors(HypervisorCapability.newBuilder().setName("sim").addAccelerators("sim")))
        .build());
    w.heartbeats.scheduleAtFixedRate(() -> w.send(WorkerMessage.newBuilder()
        .setHeartbeat(Heartbeat.getDefaultInstance()).build()), 50, 200, TimeUnit.MILLISECONDS);
    return w;
  }

  private void fail(BlockAssignment block) {
    for (RunAssignment run : block.getRunsList()) {
      send(WorkerMessage.newBuilder().setRunStarted(RunStarted.newBuilder().setRunId(run.getRunId())
          .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())).build());
      send(WorkerMessage.newBuilder().setRunFailure(RunFailure.newBuilder()
          .setRunId(run.getRunId()).setExperimentId(block.getExperimentId())
          .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())
          .setKind(FailureKind.INFRA).setMessage(MESSAGE)
          .setTelemetry(RunTelemetry.newBuilder().setHostId(hostId).setHypervisor("sim")
              .setAccelerator("sim"))).build());
    }
    send(WorkerMessage.newBuilder().setBlockFinished(BlockFinished.newBuilder()
        .setBlockId(block.getBlockId()).setLeaseEpoch(block.getLeaseEpoch())).build());
  }

  private synchronized void send(WorkerMessage message) {
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
