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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One node with one host h1 serves the tests that leave the fleet as they found it (a node start
 * costs about a second); the test that adds a host has a node of its own.
 */
class FleetServiceTest extends ControllerNodeTest {
  static OneHost shared;
  static ManagedChannel channel;
  static FleetServiceGrpc.FleetServiceBlockingStub fleet;

  /** A node, a channel to it, and a fake worker h1 it lists. */
  record OneHost(ControllerNode node, ManagedChannel channel, FakeWorker worker) implements AutoCloseable {
    static OneHost start() {
      ControllerNode node = ControllerNodeTest.inProcess(fastSettings());
      ManagedChannel channel = ControllerNodeTest.channel(node);
      FakeWorker worker = FakeWorker.connect(node, "h1", 1.0);
      Eventually.await("the worker listed", Duration.ofSeconds(5),
          () -> client(channel).listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() > 0);
      return new OneHost(node, channel, worker);
    }

    FleetServiceGrpc.FleetServiceBlockingStub fleet() {
      return FleetServiceGrpc.newBlockingStub(channel);
    }

    @Override
    public void close() {
      worker.close();
      channel.shutdownNow();
      node.close();
    }
  }

  @BeforeAll
  static void start() {
    shared = OneHost.start();
    channel = shared.channel();
    fleet = shared.fleet();
  }

  @AfterAll
  static void stop() {
    shared.close();
  }

  @Test
  void drainedHostRunsNothingUntilUndrained() throws Exception {
    try (OneHost own = OneHost.start()) {
      var fleet = own.fleet();
      var client = client(own.channel());
      Host drained = fleet.drainHost(DrainHostRequest.newBuilder().setHostId("h1").setReason("kernel update").build());
      assertThat(drained.getState()).isEqualTo("draining");
      assertThat(drained.getConnected()).isTrue();
      String id = submit(client, "e-drain", 6);
      // A host that connects after the submit gets the block: the scheduler has placed it, and an
      // undrained h1, idle all along, would have had it first.
      try (FakeWorker later = FakeWorker.connect(own.node(), "h2", 1.0)) {
        Eventually.await("a block leased to h2", Duration.ofSeconds(10), () -> !later.assignments.isEmpty());
        assertThat(own.worker().assignments).isEmpty();
        awaitExperiment(client, id, e -> e.getState().equals("completed"), Duration.ofSeconds(20));
      }

      assertThat(fleet.undrainHost(UndrainHostRequest.newBuilder().setHostId("h1").build()).getState())
          .isIn("idle", "leased");

      String next = submit(client, "e-undrained", 6);
      awaitExperiment(client, next, e -> e.getState().equals("completed"), Duration.ofSeconds(20));
      assertThat(own.worker().assignments).as("h1 runs again once undrained").isNotEmpty();
    }
  }

  @Test
  void hostsComePageByPageInIdOrderWithTheWholeFleetsCounts() {
    try (OneHost own = OneHost.start();
        FakeWorker h3 = FakeWorker.connect(own.node(), "h3", 1.0);
        FakeWorker h2 = FakeWorker.connect(own.node(), "h2", 1.0)) {
      var client = client(own.channel());
      Eventually.await("three hosts connected", Duration.ofSeconds(10), () -> client.listHosts(
          ListHostsRequest.newBuilder().setPageSize(1).build()).getConnectedHosts() == 3);

      var first = client.listHosts(ListHostsRequest.newBuilder().setPageSize(2).build());
      assertThat(first.getHostsList()).extracting(Host::getHostId).containsExactly("h1", "h2");
      assertThat(first.getNextPageToken()).isNotEmpty();
      var second = client.listHosts(ListHostsRequest.newBuilder().setPageSize(2)
          .setPageToken(first.getNextPageToken()).build());
      assertThat(second.getHostsList()).extracting(Host::getHostId).containsExactly("h3");
      assertThat(second.getNextPageToken()).isEmpty();
      for (var page : java.util.List.of(first, second)) {
        assertThat(page.getTotalHosts()).isEqualTo(3);
        assertThat(page.getConnectedHosts()).isEqualTo(3);
        assertThat(page.getLeasedHosts()).isZero();
        assertThat(page.getHostsByStateMap()).containsEntry("idle", 3).containsEntry("leased", 0)
            .containsEntry("offline", 0).hasSize(5);
      }
      assertThat(client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount())
          .as("page_size 0 lists every host, as before paging").isEqualTo(3);
    }
  }

  @Test
  void aHostPageAboveTheMaximumIsInvalidArgumentNamingIt() {
    // 10001, and 2^31, which a signed reading would take for a negative size.
    for (int size : new int[] {10_001, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> client(channel).listHosts(ListHostsRequest.newBuilder().setPageSize(size).build()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(e.getStatus().getDescription()).contains(Integer.toUnsignedString(size))
                .contains("at most 10000");
          });
    }
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
  void listedHostSaysHowLongAgoItsWorkerSpokeAndHasNoNoiseBeforeAnyExperiment() {
    // The node's session directory is found through the receptionist, which may list it a
    // moment after the controller starts.
    Host h1 = dev.abfleet.testkit.Eventually.until("h1 listed with its heartbeat age",
        java.time.Duration.ofSeconds(10), () -> listed("h1"), Host::hasHeartbeatAgeMs);

    // The worker connected within the last few seconds (and heartbeats since).
    assertThat(h1.getHeartbeatAgeMs()).isBetween(0L, 10_000L);
    assertThat(h1.hasNoise()).isFalse();
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
    var spec = spec(6).toBuilder()
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
    var spec = spec(6).toBuilder().setSelector(HostSelector.newBuilder().setHypervisor("vz")).build();

    assertThatThrownBy(() -> client(channel).submitExperiment(
            SubmitExperimentRequest.newBuilder().setExperimentId("e-vz").setSpec(spec).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
          assertThat(e.getStatus().getDescription())
              .startsWith("no host matches hypervisor=vz; the fleet has: 1 x qemu/x86_64 (tcg)");
        });
  }
}
