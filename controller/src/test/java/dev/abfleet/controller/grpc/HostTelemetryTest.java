package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.proto.fleet.v1.HostPressure;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import org.junit.jupiter.api.Test;

/** A boot's host pressure and facts go from the worker's report to the experiment's boots unchanged. */
class HostTelemetryTest {
  static final HostPressure PRESSURE = HostPressure.newBuilder().setHasPsi(true).setCpuSomeAvg10(18.45)
      .setCpuSomeTotalUs(2_400_000).setIoSomeAvg10(0.2).setIoSomeTotalUs(1_000).setMemorySomeTotalUs(10)
      .setLoad1M(9.5).setRunnableTasks(11).setHostBusyMs(17_000).setWindowMs(9_000).build();
  static final BootHostFacts FACTS = BootHostFacts.newBuilder().setHypervisorVersion("QEMU emulator version 8.2.2")
      .setHostKernel("6.8.0-45-generic").setCpuModel("AMD EPYC 7B13").setMicrocode("0xa0011d1").setSmt("off")
      .setCpufreqGovernor("performance").setBoost("on").setThp("never").setMemoryMib(7_936).setWorkerCpus("0-1")
      .build();

  static RunResult result(RunTelemetry.Builder t) {
    return RunResult.newBuilder().setRunId("r1").setLeaseEpoch(1)
        .addSamples(MetricSample.newBuilder().setMetric("boot_ms").setValue(900).setUnit("ms"))
        .setTelemetry(t.setHostId("h1").setHypervisor("qemu").setAccelerator("kvm")).build();
  }

  @Test
  void hostPressureFactsAndInterferenceReachTheExperimentsBootUnchanged() {
    RunResult r = result(RunTelemetry.newBuilder().setHostPressure(PRESSURE).setHostFacts(FACTS).setInterfered(true));

    var boot = DomainToProto.boot(ProtoToDomain.outcome(r, "h1"));

    assertThat(boot.getTelemetry().getHostPressure()).isEqualTo(PRESSURE);
    assertThat(boot.getTelemetry().getHostFacts()).isEqualTo(FACTS);
    assertThat(boot.getTelemetry().getInterfered()).isTrue();
    var host = ProtoReports.host(boot.getTelemetry());
    assertThat(host.pressure().cpuSomeTotalUs()).isEqualTo(2_400_000);
    assertThat(host.facts().workerCpus()).isEqualTo("0-1");
  }

  @Test
  void aBootWithoutHostTelemetryHasNone() {
    var outcome = ProtoToDomain.outcome(result(RunTelemetry.newBuilder()), "h1");

    assertThat(outcome.guest().host()).isNull();
    var boot = DomainToProto.boot(outcome);
    assertThat(boot.getTelemetry().hasHostPressure()).isFalse();
    assertThat(boot.getTelemetry().hasHostFacts()).isFalse();
    assertThat(ProtoReports.host(boot.getTelemetry())).isNull();
  }
}
