package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One experiment on a QEMU host and a VZ host: each boots its own hypervisor, judged apart. The
 * submits a node refuses share one node with one QEMU host, linux-1 (a node start costs about a
 * second); the experiment that runs has a node of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossHostFlowTest extends ControllerNodeTest {
  ControllerNode node;
  ManagedChannel channel;
  ExperimentServiceGrpc.ExperimentServiceBlockingStub client;
  FakeWorker linux;

  @BeforeAll
  void start() {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    client = client(channel);
    linux = FakeWorker.connect(node, "linux-1", 1.0);
    Eventually.await("1 host(s) listed", Duration.ofSeconds(5),
        () -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() >= 1);
  }

  @AfterAll
  void stop() {
    linux.close();
    channel.shutdownNow();
    node.close();
  }

  ExperimentSpec crossHost(int pairs) {
    return spec(pairs).toBuilder().setSelector(HostSelector.newBuilder()
        .addHypervisors("qemu").addHypervisors("vz")).build();
  }

  /** 8 pairs per class: with two classes in the Holm family, 6 could not reach alpha / 2. */
  @Test
  void eachHostBootsItsHypervisorAndEveryClassGetsThePolicysPairs() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings());
        FakeWorker linux = new FakeWorker(node, "linux-1", 0.7, Integer.MAX_VALUE, false)
            .withHypervisor("qemu", "kvm").start();
        FakeWorker mac = new FakeWorker(node, "mac-1", 0.7, Integer.MAX_VALUE, false)
            .withHypervisor("vz", "vz").start()) {
      ManagedChannel channel = ControllerNodeTest.channel(node);
      var client = client(channel);
      Eventually.await("2 host(s) listed", Duration.ofSeconds(5),
          () -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() >= 2);

      String id = client.submitExperiment(SubmitExperimentRequest.newBuilder().setSpec(crossHost(8)).build())
          .getExperimentId();
      Experiment done = awaitExperiment(client, id, e -> e.getState().equals("completed"), Duration.ofSeconds(30));

      assertThat(done.getPairsDone()).isEqualTo(16);
      assertThat(linux.assignments).flatExtracting(b -> b.getRunsList()).extracting(RunAssignment::getHypervisor)
          .containsOnly("qemu");
      assertThat(mac.assignments).flatExtracting(b -> b.getRunsList()).extracting(RunAssignment::getHypervisor)
          .containsOnly("vz");
      assertThat(done.getBootsList()).extracting(Boot::getHostClass).containsOnly("qemu/kvm", "vz/vz");
      assertThat(done.getComparisonsList()).filteredOn(c -> c.getMetric().equals("metadata_stat"))
          .extracting(Comparison::getHostClass).containsExactly("", "qemu/kvm", "vz/vz");
      assertThat(done.getComparisonsList()).filteredOn(c -> c.getMetric().equals("metadata_stat"))
          .extracting(Comparison::getNPairs).containsExactly(16, 8, 8);
      // Both classes regressed: the pooled row (first) carries their common verdict.
      assertThat(done.getComparisonsList()).filteredOn(c -> c.getMetric().equals("metadata_stat"))
          .extracting(Comparison::getVerdict).containsOnly("regressed");
      assertThat(done.getOverall()).isEqualTo("regressed");

      channel.shutdownNow();
    }
  }

  @Test
  void rejectsAnUnknownHypervisorInTheListAsInvalidArgument() {
    ExperimentSpec bad = spec(6).toBuilder().setSelector(HostSelector.newBuilder()
        .addHypervisors("qemu").addHypervisors("xen")).build();
    var thrown = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> client.submitExperiment(SubmitExperimentRequest.newBuilder().setSpec(bad).build()),
        StatusRuntimeException.class);
    assertThat(thrown.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(thrown.getStatus().getDescription())
        .contains("selector.hypervisors[1]: unknown hypervisor 'xen'; expected one of qemu, vz, sim");
  }

  @Test
  void rejectsASelectorNoKnownHostCanRunNamingBothHypervisors() throws Exception {
    ExperimentSpec vzOnly = spec(6).toBuilder().setSelector(HostSelector.newBuilder()
        .addHypervisors("vz").addHypervisors("sim")).build();
    ExperimentSpec unsatisfiable = spec(6).toBuilder().setSelector(HostSelector.newBuilder()
        .setArch("aarch64").addHypervisors("qemu").addHypervisors("vz")).build();
    var thrown = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> client.submitExperiment(SubmitExperimentRequest.newBuilder().setSpec(unsatisfiable).build()),
        StatusRuntimeException.class);
    assertThat(thrown.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(thrown.getStatus().getDescription()).contains("no host matches hypervisor=qemu|vz arch=aarch64");
    assertThat(vzOnly.getSelector().getHypervisorsCount()).isEqualTo(2);
  }

  @Test
  void rejectsAnAarch64KernelWhenNoKnownHostBootsAarch64Guests() throws Exception {
    ExperimentSpec.Builder arm64 = spec(6).toBuilder();
    arm64.getArmsBuilderList().forEach(a -> a.mergeBoot(BootSpec.newBuilder().setArch("aarch64").build()));
    var thrown = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> client.submitExperiment(SubmitExperimentRequest.newBuilder().setSpec(arm64).build()),
        StatusRuntimeException.class);
    assertThat(thrown.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(thrown.getStatus().getDescription()).startsWith("no host boots aarch64 guests");
  }

  @Test
  void rejectsACrossHostSelectorWhenOneListedHypervisorHasNoHost() throws Exception {
    var thrown = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> client.submitExperiment(SubmitExperimentRequest.newBuilder().setSpec(crossHost(6)).build()),
        StatusRuntimeException.class);
    assertThat(thrown.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(thrown.getStatus().getDescription()).startsWith("no host matches hypervisor=vz;")
        .contains("1 x qemu/x86_64 (tcg)");
  }
}
