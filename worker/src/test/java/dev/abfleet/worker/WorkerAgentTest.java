package dev.abfleet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerAgentTest {

  @Test
  void aSimHostAdvertisesOnlyTheSimHypervisorWithTheSimAccelerator() {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "sim-0001", Map.of("rack", "r1"), Path.of("/tmp"));
    HostFacts facts = new HostFacts("x86_64", 2, 4096, "sim", "6.1", "Linux");

    Hello hello = WorkerAgent.hello(settings, Map.of("sim", new SimDriver(SimModel.defaults(), "sim-0001")), facts);

    assertThat(hello.getHypervisorsList()).containsExactly(HypervisorCapability.newBuilder()
        .setName("sim").addAccelerators("sim").setVersion("sim-1").build());
    assertThat(hello.getFingerprint().getCpuModel()).isEqualTo("sim");
    assertThat(hello.getLabelsMap()).containsEntry("rack", "r1");
  }
}
