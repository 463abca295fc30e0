package dev.abfleet.controller.grpc;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.CounterRatio;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.Workload;
import org.junit.jupiter.api.Test;

class ProtoToDomainTest {

  @Test
  void countsTheParseErrorsAWorkerOmittedAlongWithThoseItListed() {
    RunResult.Builder r = RunResult.newBuilder().setRunId("r1").setLeaseEpoch(1)
        .addSamples(MetricSample.newBuilder().setMetric("m").setValue(1).setUnit("ops/s").setBetter("higher"))
        .setParseErrorsOmitted(99_980);
    for (int i = 1; i <= 20; i++) {
      r.addParseErrors("line " + i + ": not a JSON object: garbage");
    }

    var outcome = ProtoToDomain.outcome(r.build(), "h1");

    assertThat(outcome.message()).isEqualTo("100000 result lines did not parse, first: line 1: not a JSON object: garbage");
  }

  @Test
  void aSpecWithoutAQuietHostPolicyGetsTheDefaultPolicyAndOffTurnsItOff() {
    var unset = ProtoToDomain.spec(ExperimentSpec.getDefaultInstance()).policy().hostQuiet();
    assertThat(unset).isEqualTo(dev.abfleet.controller.plan.HostQuiet.DEFAULTS);
    assertThat(unset.reruns()).isTrue();
    ExperimentSpec off = ExperimentSpec.newBuilder().setPolicy(dev.abfleet.proto.fleet.v1.Policy.newBuilder()
        .setHostQuiet(dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setOnInterference("off"))).build();
    var domainOff = ProtoToDomain.spec(off);
    assertThat(domainOff.policy().hostQuiet().on()).isFalse();
    // Sent back explicitly either way: an unset policy would read as the default.
    assertThat(DomainToProto.spec(domainOff).getPolicy().getHostQuiet().getOnInterference()).isEqualTo("off");
    assertThat(DomainToProto.spec(ProtoToDomain.spec(ExperimentSpec.getDefaultInstance())).getPolicy()
        .getHostQuiet().getOnInterference()).isEqualTo("rerun");
  }

  @Test
  void aBenchmarksWorkloadReachesTheDomainSpecAndComesBackUnchanged() {
    Workload w = Workload.newBuilder()
        .setFiles(Artifact.newBuilder().setSha256("ab".repeat(32)).setUri("/cache/guest/workloads/x.cpio.gz")
            .setSizeBytes(4096))
        .setRun("sh /workload/run.sh 'a b'").setOutput("gobench").setTimeoutS(300).build();
    ExperimentSpec p = ExperimentSpec.newBuilder()
        .setBenchmark(Benchmark.newBuilder().setVolume("host").setWorkload(w)).build();

    var domain = ProtoToDomain.spec(p);

    assertThat(domain.benchmark().workload().run()).isEqualTo("sh /workload/run.sh 'a b'");
    assertThat(DomainToProto.spec(domain).getBenchmark().getWorkload()).isEqualTo(w);
    assertThat(DomainToProto.spec(ProtoToDomain.spec(ExperimentSpec.getDefaultInstance())).getBenchmark()
        .hasWorkload()).isFalse();
  }

  @Test
  void aBenchmarksCounterRatiosReachTheDomainSpecTheReportAndComeBackUnchanged() {
    CounterRatio ratio = CounterRatio.newBuilder().setName("res_per_virtio_req").setNum("RES")
        .setDen("virtio*-request*").build();
    ExperimentSpec p = ExperimentSpec.newBuilder()
        .setBenchmark(Benchmark.newBuilder().addRatios(ratio)).build();

    var domain = ProtoToDomain.spec(p);

    assertThat(domain.benchmark().ratios()).containsExactly(
        new dev.abfleet.model.CounterRatio("res_per_virtio_req", "RES", "virtio*-request*"));
    assertThat(DomainToProto.spec(domain).getBenchmark().getRatiosList()).containsExactly(ratio);
    assertThat(ProtoReports.of(Experiment.newBuilder().setSpec(p).build()).design().ratios())
        .isEqualTo(domain.benchmark().ratios());
  }

  @Test
  void anArmsPackedModuleTreeReachesTheDomainAndComesBackAndAnArmWithoutOneHasNone() {
    Artifact tree = Artifact.newBuilder().setSha256("cd".repeat(32)).setUri("abfleet:sha256:" + "cd".repeat(32))
        .setSizeBytes(1_610_752).build();
    ExperimentSpec p = ExperimentSpec.newBuilder()
        .addArms(Arm.newBuilder().setName("with").mergeBoot(BootSpec.newBuilder().setModulesTree(tree).build()))
        .addArms(Arm.newBuilder().setName("without").setBoot(BootSpec.newBuilder().setModulesDir("/srv/lib/modules/6.1.0-50-amd64"))).build();

    var domain = ProtoToDomain.spec(p);

    assertThat(domain.arms().get(1).guest().modulesTree()).isNull();
    ExperimentSpec back = DomainToProto.spec(domain);
    assertThat(back.getArms(0).getBoot().getModulesTree()).isEqualTo(tree);
    assertThat(back.getArms(1).getBoot().hasModulesTree()).isFalse();
    assertThat(back.getArms(1).getBoot().getModulesDir()).isEqualTo("/srv/lib/modules/6.1.0-50-amd64");
  }

  @Test
  void anArmsKernelBuildReachesTheDomainAndComesBackAndAnArmWithoutOneHasNone() {
    KernelBuild build = KernelBuild.newBuilder().setKey("9b1e07aa" + "0".repeat(56))
        .setSource("linux-source-6.1.tar.xz").setSourceDigest("ef".repeat(32))
        .addPatches("slow-stat.patch").addPatchDigests("12".repeat(32)).setConfig("abfleet-minimal")
        .setArch("x86_64").setToolchain("gcc (Debian 12.2.0-14) 12.2.0").setRelease("6.1.176").build();
    ExperimentSpec p = ExperimentSpec.newBuilder()
        .addArms(Arm.newBuilder().setName("slow").setBuild(build))
        .addArms(Arm.newBuilder().setName("given")).build();

    var domain = ProtoToDomain.spec(p);

    assertThat(domain.arms().get(0).build().patches()).containsExactly("slow-stat.patch");
    assertThat(domain.arms().get(0).build().release()).isEqualTo("6.1.176");
    assertThat(domain.arms().get(1).build()).isNull();
    ExperimentSpec back = DomainToProto.spec(domain);
    assertThat(back.getArms(0).getBuild()).isEqualTo(build);
    assertThat(back.getArms(1).hasBuild()).isFalse();
  }

  @Test
  void aBenchmarksThreadsAndSizesReachTheDomainAndComeBack() {
    ExperimentSpec p = ExperimentSpec.newBuilder()
        .setBenchmark(Benchmark.newBuilder().setThreads(4).setSeqSizeMib(64).setFileSize(4096)).build();

    var domain = ProtoToDomain.spec(p);

    assertThat(domain.benchmark().load()).isEqualTo(new dev.abfleet.controller.plan.BenchmarkSpec.Load(4, 64, 4096));
    Benchmark back = DomainToProto.spec(domain).getBenchmark();
    assertThat(back.getThreads()).isEqualTo(4);
    assertThat(back.getSeqSizeMib()).isEqualTo(64);
    assertThat(back.getFileSize()).isEqualTo(4096);
  }

  @Test
  void keepsPerCpuCountersAndThreadRatesOfARun() {
    var t = dev.abfleet.proto.fleet.v1.MetricTelemetry.newBuilder().setMetric("m").setWork(10).setWorkUnit("ops")
        .putInterrupts("RES", 12)
        .putInterruptsPerCpu("RES", dev.abfleet.proto.fleet.v1.MetricTelemetry.PerCpu.newBuilder()
            .addCounts(5).addCounts(7).build())
        .putSoftirqsPerCpu("SCHED", dev.abfleet.proto.fleet.v1.MetricTelemetry.PerCpu.newBuilder()
            .addCounts(1).addCounts(2).build())
        .addWakeupsPerCpu(40).addWakeupsPerCpu(41).addThreadRates(1500.5).addThreadRates(1499.5).build();
    RunResult r = RunResult.newBuilder().setRunId("r1").setLeaseEpoch(1)
        .addSamples(MetricSample.newBuilder().setMetric("m").setValue(1).setUnit("ops/s").setBetter("higher"))
        .addGuestCounters(t).build();

    var c = ProtoToDomain.outcome(r, "h1").guest().counters().get(0);

    assertThat(c.interruptsPerCpu()).containsExactly(java.util.Map.entry("RES", java.util.List.of(5L, 7L)));
    assertThat(c.softirqsPerCpu()).containsExactly(java.util.Map.entry("SCHED", java.util.List.of(1L, 2L)));
    assertThat(c.wakeupsPerCpu()).containsExactly(40L, 41L);
    assertThat(c.threadRates()).containsExactly(1500.5, 1499.5);
  }

  @Test
  void anArmFromAClientOlderThanBootSpecReadsBackWithItsBootFields() throws Exception {
    // What such a client wrote: the boot fields on Arm itself, under the numbers BootSpec keeps.
    Artifact kernel = Artifact.newBuilder().setSha256("ab".repeat(32)).setUri("/k/old").setSizeBytes(7).build();
    var bytes = new java.io.ByteArrayOutputStream();
    var out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
    out.writeString(1, "old");
    out.writeString(2, "baseline");
    out.writeMessage(3, kernel);
    out.writeString(5, "quiet");
    out.writeString(9, "cache=loose");
    out.writeString(10, "x86_64");
    out.writeString(14, "9p");
    out.flush();

    Arm old = Arm.parseFrom(bytes.toByteArray());

    assertThat(old.hasBoot()).isFalse();
    BootSpec boot = BootSpecs.of(old);
    assertThat(boot.getKernel()).isEqualTo(kernel);
    assertThat(boot.getCmdlineExtra()).isEqualTo("quiet");
    assertThat(boot.getVolumeOptions()).isEqualTo("cache=loose");
    assertThat(boot.getArch()).isEqualTo("x86_64");
    assertThat(boot.getVolumeTransport()).isEqualTo("9p");
    var arm = ProtoToDomain.spec(ExperimentSpec.newBuilder().addArms(old).build()).arms().get(0);
    assertThat(arm.kernel().uri()).isEqualTo("/k/old");
    assertThat(arm.guest().volumeOptions()).isEqualTo("cache=loose");
  }

  @Test
  void anArmWithABootSpecIsReadAsItIs() {
    BootSpec boot = BootSpec.newBuilder().setCmdlineExtra("quiet").setVolumeCache("none").build();

    assertThat(BootSpecs.of(Arm.newBuilder().setName("a").setBoot(boot).build())).isEqualTo(boot);
  }
}
