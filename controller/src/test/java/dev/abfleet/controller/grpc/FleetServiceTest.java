package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.proto.fleet.v1.UndrainHostRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FleetServiceTest extends ControllerNodeTest {
  ControllerNode node;
  ManagedChannel channel;
  FleetServiceGrpc.FleetServiceBlockingStub fleet;
  FakeWorker worker;

  @BeforeEach
  void start() throws InterruptedException {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    fleet = FleetServiceGrpc.newBlockingStub(channel);
    worker = FakeWorker.connect(node, "h1", 1.0);
    Eventually.await("the worker listed", java.time.Duration.ofSeconds(5), () -> hosts() > 0);
  }

  @AfterEach
  void stop() {
    worker.close();
    channel.shutdownNow();
    node.close();
  }

  long hosts() {
    return client(channel).listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount();
  }

  @Test
  void drainedHostRunsNothingUntilUndrained() throws Exception {
    Host drained = fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h1").setReason("kernel update").build());
    assertThat(drained.getState()).isEqualTo("draining");
    assertThat(drained.getConnected()).isTrue();
    String id = submit(client(channel), "e-drain", 1);
    // A host that connects after the submit gets the block: the scheduler has placed it, and an
    // undrained h1, idle all along, would have had it first.
    try (FakeWorker later = FakeWorker.connect(node, "h2", 1.0)) {
      Eventually.await("a block leased to h2", Duration.ofSeconds(10), () -> !later.assignments.isEmpty());
      assertThat(worker.assignments).isEmpty();
      awaitExperiment(client(channel), id, e -> e.getState().equals("completed"), Duration.ofSeconds(20));
    }

    assertThat(fleet.undrainHost(UndrainHostRequest.newBuilder().setHostId("h1").build()).getState())
        .isIn("idle", "leased");

    String next = submit(client(channel), "e-undrained", 1);
    awaitExperiment(client(channel), next, e -> e.getState().equals("completed"), Duration.ofSeconds(20));
    assertThat(worker.assignments).as("h1 runs again once undrained").isNotEmpty();
  }

  @Test
  void drainReasonIsListedReplacedByALaterDrainAndClearedByUndrain() {
    assertThat(fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h1")
        .setReason("kernel update").build()).getDrainReason()).isEqualTo("kernel update");
    assertThat(listed("h1").getDrainReason()).isEqualTo("kernel update");

    assertThat(fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h1")
        .setReason("disk RMA-42").build()).getDrainReason()).isEqualTo("disk RMA-42");
    // Again without a reason: still drained, the reason given stays.
    assertThat(fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h1").build())
        .getDrainReason()).isEqualTo("disk RMA-42");

    Host undrained = fleet.undrainHost(UndrainHostRequest.newBuilder().setHostId("h1").build());
    assertThat(undrained.getDrainReason()).isEmpty();
    assertThat(listed("h1").getDrainReason()).isEmpty();
  }

  private Host listed(String hostId) {
    return client(channel).listHosts(ListHostsRequest.getDefaultInstance()).getHostsList().stream()
        .filter(h -> h.getHostId().equals(hostId)).findFirst().orElseThrow();
  }

  @Test
  void unknownHostIsNotFoundAndNamesTheKnownHosts() {
    assertThatThrownBy(() -> fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h9").build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
          assertThat(e.getStatus().getDescription()).isEqualTo("unknown host 'h9'; known hosts: h1");
        });
  }

  @Test
  void malformedHostIdIsInvalidArgument() {
    assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h 1;rm").build()));
  }

  @Test
  void submitPinningMoreVcpusThanAnyHostHasCpusFailsThePreconditionAndSaysWhy() {
    var spec = spec(2).toBuilder()
        .addArms(arm("pinned", "ceiling", "c").toBuilder().mergeBoot(BootSpec.newBuilder().setShape(VmShape.newBuilder().setVcpus(4).setPinVcpus(true)).build()))
        .build();

    assertThatThrownBy(() -> client(channel).submitExperiment(
            SubmitExperimentRequest.newBuilder().setExperimentId("e-pin").setSpec(spec).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
          assertThat(e.getStatus().getDescription())
              .startsWith("arm pinned needs 4 CPUs to pin 4 vCPUs; the largest host matching hypervisor=qemu has 2");
        });
  }

  @Test
  void submitForAHypervisorNoHostHasFailsThePrecondition() {
    var spec = spec(2).toBuilder().setSelector(HostSelector.newBuilder().setHypervisor("vz")).build();

    assertThatThrownBy(() -> client(channel).submitExperiment(
            SubmitExperimentRequest.newBuilder().setExperimentId("e-vz").setSpec(spec).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
          assertThat(e.getStatus().getDescription())
              .startsWith("no host matches hypervisor=vz; the fleet has: 1 x qemu/x86_64 (tcg)");
        });
  }
}
