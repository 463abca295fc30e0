package dev.abfleet.worker;

import dev.abfleet.worker.vm.vz.VzDriver;
import java.util.List;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.BootOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WorkerAgentTest {

  @Test
  void aSimHostAdvertisesOnlyTheSimHypervisorWithTheSimAccelerator() {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "sim-0001", Map.of("rack", "r1"), Path.of("/tmp"));
    HostFacts facts = new HostFacts("x86_64", 2, 4096, "sim", "6.1", "Linux");

    Hello hello = WorkerAgent.hello(settings, Map.of("sim", new SimDriver(SimModel.defaults(), "sim-0001")), facts);

    assertThat(hello.getHypervisorsList()).containsExactly(HypervisorCapability.newBuilder()
        .setName("sim").addAccelerators("sim").setVersion("sim-1").setVcpuPinning("threads").build());
    assertThat(hello.getFingerprint().getCpuModel()).isEqualTo("sim");
    assertThat(hello.getLabelsMap()).containsEntry("rack", "r1");
  }

  @Test
  void pingsAtTheProtocolKeepaliveUnlessThePropertyShortensIt() {
    assertThat(WorkerAgent.keepAlive(null)).isEqualTo(Duration.ofSeconds(ProtocolConstants.WORKER_KEEPALIVE_S_VALUE));
    assertThat(WorkerAgent.keepAlive("10")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void rejectsAKeepaliveShorterThanGrpcAllows() {
    assertThatThrownBy(() -> WorkerAgent.keepAlive("5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("-Dabfleet.worker.keepalive-s=5: expected whole seconds, at least 10 (gRPC's shortest keepalive)");
  }

  @Test
  void theControllerPermitsPingsWellBeforeAWorkerSendsThem() {
    assertThat(ProtocolConstants.CONTROLLER_PERMIT_KEEPALIVE_S_VALUE)
        .isLessThan(ProtocolConstants.WORKER_KEEPALIVE_MIN_S_VALUE)
        .isLessThan(ProtocolConstants.WORKER_KEEPALIVE_S_VALUE);
  }

  @Test
  void advertisesTheVolumeTransportsOfAUsableHypervisor() {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), Path.of("/tmp"));
    HostFacts facts = new HostFacts("x86_64", 2, 4096, "cpu", "6.1", "Linux");
    VmDriver qemu = probedQemu(List.of("9p"), List.of());

    Hello hello = WorkerAgent.hello(settings, Map.of("qemu", qemu), facts);

    assertThat(hello.getHypervisors(0).getVolumeTransportsList()).containsExactly("9p");
  }

  /** QEMU pins vCPU threads; VZ cannot (the controller then never leases it a pinned arm). */
  @Test
  void advertisesWhichHypervisorsPinVcpus() {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "mac", Map.of(), Path.of("/tmp"));
    HostFacts facts = new HostFacts("aarch64", 8, 16384, "Apple M2", "24.1", "Mac OS X");
    VmDriver vz = new VzDriver("Mac OS X", "aarch64",
        n -> Optional.of(Path.of("/opt/homebrew/bin", n)), (argv, workDir, logName, timeout) -> {
          throw new AssertionError("the hello runs nothing");
        });

    Hello hello = WorkerAgent.hello(settings, new TreeMap<>(Map.of("qemu", probedQemu(List.of(), List.of()), "vz", vz)),
        facts);

    assertThat(hello.getHypervisorsList()).extracting(HypervisorCapability::getName, HypervisorCapability::getVcpuPinning)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("qemu", "threads"), org.assertj.core.groups.Tuple.tuple("vz", "none"));
  }

  @Test
  void advertisesTheGuestArchesOfEachHypervisorAndWhetherItBuildsGuestImages() {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), Path.of("/tmp"), false);
    HostFacts facts = new HostFacts("x86_64", 2, 4096, "cpu", "6.1", "Linux");
    VmDriver qemu = probedQemu(List.of(), List.of("x86_64", "aarch64"));

    Hello hello = WorkerAgent.hello(settings, Map.of("qemu", qemu), facts);

    assertThat(hello.getHypervisors(0).getGuestArchesList()).containsExactly("x86_64", "aarch64");
    assertThat(hello.getBuildsGuestImages()).isFalse();
    assertThat(WorkerAgent.hello(settings.withBuildsImages(true), Map.of("qemu", qemu), facts).getBuildsGuestImages())
        .isTrue();
  }

  /** A usable QEMU (TCG) that offers these volume transports and guest arches and never boots. */
  private static VmDriver probedQemu(List<String> transports, List<String> guestArches) {
    return new VmDriver() {
      @Override
      public String name() {
        return "qemu";
      }

      @Override
      public List<String> accelerators() {
        return List.of("tcg");
      }

      @Override
      public List<String> volumeTransports() {
        return transports;
      }

      @Override
      public List<String> guestArches() {
        return guestArches;
      }

      @Override
      public BootOutcome boot(BootRequest request) {
        throw new AssertionError("not booted");
      }
    };
  }
}
