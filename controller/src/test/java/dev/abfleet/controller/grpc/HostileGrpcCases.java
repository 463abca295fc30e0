package dev.abfleet.controller.grpc;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ArtifactServiceGrpc;
import dev.abfleet.proto.fleet.v1.ArtifactStatusRequest;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.DrainHostRequest;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.FleetServiceGrpc;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.proto.fleet.v1.Workload;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status.Code;
import io.grpc.stub.ClientCalls;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The table of hostile unary calls against a controller: what is sent, the status code, and words
 * of the problem and of the fix its description must contain.
 */
final class HostileGrpcCases {
  private HostileGrpcCases() {}

  /** The clients a case calls through. */
  record Stubs(ExperimentServiceGrpc.ExperimentServiceBlockingStub experiments,
      FleetServiceGrpc.FleetServiceBlockingStub fleet, ArtifactServiceGrpc.ArtifactServiceBlockingStub artifacts,
      ManagedChannel channel) {}

  /** One call that must fail. */
  interface Call {
    void run(Stubs s);
  }

  record UnaryCase(String name, Call call, Code code, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final String HEX_A = "a".repeat(64);

  /** A valid spec changed by {@code change}, submitted under a fresh valid id. */
  static Call submit(UnaryOperator<ExperimentSpec.Builder> change) {
    return s -> s.experiments().submitExperiment(SubmitExperimentRequest.newBuilder()
        .setSpec(change.apply(ControllerNodeTest.spec(6).toBuilder())).build());
  }

  static Call submitWithId(String id) {
    return s -> s.experiments().submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id)
        .setSpec(ControllerNodeTest.spec(6)).build());
  }

  /** A valid spec whose candidate arm is changed by {@code change}. */
  static Call candidate(UnaryOperator<Arm.Builder> change) {
    return submit(b -> b.setArms(1, change.apply(b.getArms(1).toBuilder())));
  }

  static Call kernelUri(String uri) {
    return candidate(a -> a.mergeBoot(BootSpec.newBuilder().setKernel(a.getBoot().getKernel().toBuilder().setUri(uri)).build()));
  }

  /** A valid spec whose name is replaced by raw bytes that are not UTF-8, sent as bytes. */
  static Call invalidUtf8Name() {
    return s -> {
      byte[] bytes = SubmitExperimentRequest.newBuilder()
          .setSpec(ControllerNodeTest.spec(6).toBuilder().setName("@@@@")).build().toByteArray();
      for (int i = 0; i + 3 < bytes.length; i++) {
        if (bytes[i] == '@' && bytes[i + 1] == '@' && bytes[i + 2] == '@' && bytes[i + 3] == '@') {
          bytes[i] = (byte) 0xff;
          bytes[i + 1] = (byte) 0xfe;
          bytes[i + 2] = (byte) 0xc3;
          bytes[i + 3] = (byte) 0x28;
        }
      }
      ClientCalls.blockingUnaryCall(s.channel(), rawSubmit(), CallOptions.DEFAULT, bytes);
    };
  }

  private static MethodDescriptor<byte[], byte[]> rawSubmit() {
    MethodDescriptor.Marshaller<byte[]> raw = RequestParsing.BYTES;
    return ExperimentServiceGrpc.getSubmitExperimentMethod().toBuilder(raw, raw).build();
  }

  static List<UnaryCase> cases() {
    String idForm = "use 1 to 128 of [A-Za-z0-9_.:-]";
    String sha = "is not a lower-case hex SHA-256";
    return List.of(
        new UnaryCase("empty spec", submit(b -> ExperimentSpec.newBuilder()), Code.INVALID_ARGUMENT,
            "need exactly one arm with role baseline", "at least one candidate"),
        new UnaryCase("arm without a role", candidate(a -> a.clearRole()), Code.INVALID_ARGUMENT,
            "arms[1].role: missing or unknown", "use baseline, candidate or ceiling"),
        new UnaryCase("arm without a kernel", candidate(a -> a.setBoot(a.getBoot().toBuilder().clearKernel())), Code.INVALID_ARGUMENT,
            "arms[1].kernel.sha256: ''", "pass the output of sha256sum"),
        new UnaryCase("two arms with one name", candidate(a -> a.setName("base")), Code.INVALID_ARGUMENT,
            "'base' is used twice", "give each arm its own name"),
        new UnaryCase("100,000 arms", submit(b -> {
          for (int i = 0; i < 100_000; i++) {
            b.addArms(Arm.newBuilder().setName("c" + i).setRole("candidate"));
          }
          return b;
        }), Code.INVALID_ARGUMENT, "arms: 100002 entries", "at most 32 are allowed"),
        new UnaryCase("100,000 metrics", submit(b -> {
          Benchmark.Builder bench = b.getBenchmark().toBuilder();
          for (int i = 0; i < 100_000; i++) {
            bench.addMetrics("m" + i);
          }
          return b.setBenchmark(bench);
        }), Code.INVALID_ARGUMENT, "benchmark.metrics: 100002 entries", "at most 256 are allowed"),
        new UnaryCase("200 empty gating metrics, five named", submit(b -> {
          Policy.Builder p = b.getPolicy().toBuilder();
          for (int i = 0; i < 200; i++) {
            p.addGatingMetrics("");
          }
          return b.setPolicy(p);
        }), Code.INVALID_ARGUMENT, "policy.gating_metrics[1]: empty", "(and 195 more problems)"),
        new UnaryCase("experiment id with rm -rf", submitWithId("; rm -rf /"), Code.INVALID_ARGUMENT,
            "'; rm -rf /' is not a valid experiment id", idForm),
        new UnaryCase("experiment id with $(id)", submitWithId("$(id)"), Code.INVALID_ARGUMENT,
            "'$(id)' is not a valid experiment id", "or leave it empty for a generated one"),
        new UnaryCase("experiment id with backticks", submitWithId("e-`reboot`"), Code.INVALID_ARGUMENT,
            "'e-`reboot`' is not a valid experiment id", idForm),
        new UnaryCase("experiment id with a newline", submitWithId("e-1\ne-2"), Code.INVALID_ARGUMENT,
            "'e-1?e-2' is not a valid experiment id", idForm),
        new UnaryCase("experiment id with path separators", submitWithId("../../etc/passwd"), Code.INVALID_ARGUMENT,
            "'../../etc/passwd' is not a valid experiment id", idForm),
        new UnaryCase("experiment id of 10,000 characters", submitWithId("e".repeat(10_000)), Code.INVALID_ARGUMENT,
            "is not a valid experiment id", idForm),
        new UnaryCase("spec name with a terminal escape", submit(b -> b.setName("ab\u001b[2J")),
            Code.INVALID_ARGUMENT, "name: 'ab?[2J' contains control characters", "write it on one line"),
        new UnaryCase("spec name that is not UTF-8", invalidUtf8Name(), Code.INVALID_ARGUMENT,
            "not valid UTF-8", "send text as UTF-8"),
        new UnaryCase("kernel uri ../../etc/passwd", kernelUri("../../etc/passwd"), Code.INVALID_ARGUMENT,
            "arms[1].kernel.uri: '../../etc/passwd' contains '..'", "send the path without '..' segments"),
        new UnaryCase("kernel uri climbing out of an absolute path", kernelUri("/srv/kernels/../../etc/shadow"),
            Code.INVALID_ARGUMENT, "contains '..'", "an absolute, normalized path"),
        new UnaryCase("kernel uri abfleet:sha256: with bad hex", kernelUri("abfleet:sha256:zz"), Code.INVALID_ARGUMENT,
            "'abfleet:sha256:zz' does not name a sha256", "send abfleet:sha256:<the artifact's sha256>"),
        new UnaryCase("kernel uri naming another artifact", kernelUri("abfleet:sha256:" + "c".repeat(64)),
            Code.INVALID_ARGUMENT, "names another artifact than sha256 " + "b".repeat(64), "send abfleet:sha256:"),
        new UnaryCase("kernel uri with an http scheme", kernelUri("http://evil.example/k"), Code.INVALID_ARGUMENT,
            "'http://evil.example/k' has an unsupported scheme", "send an absolute path, a file:// URI"),
        new UnaryCase("kernel uri with a newline", kernelUri("/k/cand\n/etc/passwd"), Code.INVALID_ARGUMENT,
            "contains control characters", "send the path as it is on disk"),
        new UnaryCase("kernel sha256 in upper case", candidate(a -> a.setBoot(a.getBoot().toBuilder().setKernel(Artifact.newBuilder()
            .setSha256("B".repeat(64))))), Code.INVALID_ARGUMENT, "arms[1].kernel.sha256: '" + "B".repeat(64), sha),
        new UnaryCase("kernel size negative", candidate(a -> a.mergeBoot(BootSpec.newBuilder().setKernel(a.getBoot().getKernel().toBuilder().setSizeBytes(-1)).build())),
            Code.INVALID_ARGUMENT, "arms[1].kernel.size_bytes: -1 is negative", "send the size in bytes"),
        new UnaryCase("initrd uri traversal", candidate(a -> a.setBoot(a.getBoot().toBuilder().setInitrd(Artifact.newBuilder().setSha256(HEX_A)
            .setUri("../initrd")))), Code.INVALID_ARGUMENT, "arms[1].initrd.uri: '../initrd' contains '..'",
            "without '..' segments"),
        new UnaryCase("build toolchain with a terminal escape", candidate(a -> a.setBuild(KernelBuild.newBuilder()
            .setKey(HEX_A).setSource("linux-source-6.1.tar.xz").setToolchain("gcc\u001b[2J"))), Code.INVALID_ARGUMENT,
            "arms[1].build.toolchain: 'gcc?[2J' contains control characters", "write it on one line"),
        new UnaryCase("10,000 build patches", candidate(a -> {
          KernelBuild.Builder build = KernelBuild.newBuilder().setKey(HEX_A);
          for (int i = 0; i < 10_000; i++) {
            build.addPatches(i + ".patch");
          }
          return a.setBuild(build);
        }), Code.INVALID_ARGUMENT, "arms[1].build.patches: 10000 entries", "at most 256 are allowed"),
        new UnaryCase("workload files uri traversal", submit(b -> b.setBenchmark(b.getBenchmark().toBuilder()
            .clearMetrics().setWorkload(Workload.newBuilder().setRun("sh run.sh").setFiles(Artifact.newBuilder()
                .setSha256(HEX_A).setUri("abfleet:sha256:../../etc/passwd"))))), Code.INVALID_ARGUMENT,
            "benchmark.workload.files.uri: 'abfleet:sha256:../../etc/passwd' does not name a sha256",
            "send abfleet:sha256:"),
        new UnaryCase("pairs negative", submit(b -> b.setPolicy(b.getPolicy().toBuilder().setPairs(-5))),
            Code.INVALID_ARGUMENT, "policy.pairs: -5 is out of range", "use 1..1000"),
        new UnaryCase("pairs huge", submit(b -> b.setPolicy(b.getPolicy().toBuilder().setPairs(Integer.MAX_VALUE))),
            Code.INVALID_ARGUMENT, "policy.pairs: 2147483647 is out of range", "use 1..1000"),
        new UnaryCase("alpha NaN", submit(b -> b.setPolicy(b.getPolicy().toBuilder().setAlpha(Double.NaN))),
            Code.INVALID_ARGUMENT, "policy.alpha: NaN", "must be in (0, 1)"),
        new UnaryCase("noise threshold infinite", submit(b -> b.setPolicy(b.getPolicy().toBuilder()
            .setNoiseThreshold(Double.POSITIVE_INFINITY))), Code.INVALID_ARGUMENT, "policy.noise_threshold: Infinity",
            "must be a fraction in (0, 1)"),
        new UnaryCase("vcpus negative", candidate(a -> a.mergeBoot(BootSpec.newBuilder().setShape(VmShape.newBuilder().setVcpus(-2)).build())),
            Code.INVALID_ARGUMENT, "arms[1].shape: vcpus and memory_mib must not be negative", "(0 = default)"),
        new UnaryCase("unknown hypervisor", submit(b -> b.setSelector(HostSelector.newBuilder().setHypervisor("kvm2"))),
            Code.INVALID_ARGUMENT, "unknown hypervisor 'kvm2'", "expected one of qemu, vz, sim"),
        new UnaryCase("unknown arch", submit(b -> b.setSelector(HostSelector.newBuilder().setArch("arm64"))),
            Code.INVALID_ARGUMENT, "unknown architecture 'arm64'", "expected x86_64 or aarch64"),
        new UnaryCase("host id with rm -rf in the selector", submit(b -> b.setSelector(HostSelector.newBuilder()
            .addHosts("h1; rm -rf /"))), Code.INVALID_ARGUMENT, "'h1; rm -rf /' is not a valid host id",
            "use 1 to 128 of"),
        new UnaryCase("unknown priority", submit(b -> b.setPriority("urgent")), Code.INVALID_ARGUMENT,
            "unknown priority 'urgent'", "expected one of pr, adhoc, nightly"),
        new UnaryCase("unknown gating metric", submit(b -> b.setPolicy(b.getPolicy().toBuilder().clearGatingMetrics()
            .addGatingMetrics("nosuch"))), Code.INVALID_ARGUMENT,
            "policy.gating_metrics[0]: gating metric 'nosuch' is not measured", "add it to metrics or remove it"),
        new UnaryCase("unknown metric", submit(b -> b.setBenchmark(b.getBenchmark().toBuilder().addMetrics("nosuch"))),
            Code.INVALID_ARGUMENT, "unknown metric 'nosuch' for harness fleetbench", "expected one of metadata_stat"),
        new UnaryCase("unknown volume", submit(b -> b.setBenchmark(b.getBenchmark().toBuilder().setVolume("cloud"))),
            Code.INVALID_ARGUMENT, "benchmark.volume: unknown volume 'cloud'", "expected one of guest, host"),
        new UnaryCase("harness as a path out of the root", submit(b -> b.setBenchmark(b.getBenchmark().toBuilder()
            .setHarness("../../bin/sh"))), Code.INVALID_ARGUMENT,
            "benchmark.harness: unknown harness '../../bin/sh'", "a name, not a path"),
        new UnaryCase("module as a path out of the root", candidate(a -> a.mergeBoot(BootSpec.newBuilder()
            .addModules("../../../etc/shadow").build())), Code.INVALID_ARGUMENT,
            "arms[1].modules[0]: '../../../etc/shadow' is not a module name", "no path, no .ko"),
        new UnaryCase("absolute module path", candidate(a -> a.mergeBoot(BootSpec.newBuilder()
            .addModules("/etc/shadow").build())), Code.INVALID_ARGUMENT,
            "arms[1].modules[0]: '/etc/shadow' is not a module name", "the name modprobe takes"),
        new UnaryCase("label value of 10 KB", submit(b -> b.setSelector(HostSelector.newBuilder()
            .putLabels("pool", "x".repeat(10_240)))), Code.INVALID_ARGUMENT,
            "selector.labels: 'pool=xxxx", "keys and values use 1 to 63"),
        new UnaryCase("get with a path as id", s -> s.experiments().getExperiment(GetExperimentRequest.newBuilder()
            .setExperimentId("../../etc/passwd").build()), Code.INVALID_ARGUMENT,
            "'../../etc/passwd' is not a valid experiment id", idForm),
        new UnaryCase("get without an id", s -> s.experiments().getExperiment(GetExperimentRequest.getDefaultInstance()),
            Code.INVALID_ARGUMENT, "experiment_id: missing", "pass the id SubmitExperiment returned"),
        new UnaryCase("get an unknown id", s -> s.experiments().getExperiment(GetExperimentRequest.newBuilder()
            .setExperimentId("e-00000000").build()), Code.NOT_FOUND, "unknown experiment 'e-00000000'",
            "abfleet experiments list"),
        new UnaryCase("cancel with $(id)", s -> s.experiments().cancelExperiment(CancelExperimentRequest.newBuilder()
            .setExperimentId("$(id)").build()), Code.INVALID_ARGUMENT, "'$(id)' is not a valid experiment id", idForm),
        new UnaryCase("list with a huge page", s -> s.experiments().listExperiments(ListExperimentsRequest.newBuilder()
            .setPageSize(Integer.MAX_VALUE).build()), Code.INVALID_ARGUMENT, "page_size 2147483647",
            "expected 1 to 1000"),
        new UnaryCase("list with a page of 2^31 (negative as a Java int)", s -> s.experiments().listExperiments(
            ListExperimentsRequest.newBuilder().setPageSize(Integer.MIN_VALUE).build()), Code.INVALID_ARGUMENT,
            "page_size 2147483648", "expected 1 to 1000"),
        new UnaryCase("list with a page of 2^32-1 (-1 as a Java int)", s -> s.experiments().listExperiments(
            ListExperimentsRequest.newBuilder().setPageSize(-1).build()), Code.INVALID_ARGUMENT,
            "page_size 4294967295", "expected 1 to 1000"),
        new UnaryCase("list with a forged page token", s -> s.experiments().listExperiments(
            ListExperimentsRequest.newBuilder().setPageToken("'; DROP TABLE journal; --").build()),
            Code.INVALID_ARGUMENT, "not a token this controller gave", "pass next_page_token from the previous answer"),
        new UnaryCase("drain a host id with rm -rf", s -> s.fleet().drainHost(DrainHostRequest.newBuilder()
            .setHostId("; rm -rf /").build()), Code.INVALID_ARGUMENT, "'; rm -rf /' is not a valid host id",
            "use 1 to 128 of"),
        new UnaryCase("artifact status of ../../etc/passwd", s -> s.artifacts().getArtifactStatus(
            ArtifactStatusRequest.newBuilder().setSha256("../../etc/passwd").build()), Code.INVALID_ARGUMENT,
            "'../../etc/passwd' is not a sha256", "send the artifact's SHA-256 as 64 hex digits"),
        new UnaryCase("artifact status of a NUL name", s -> s.artifacts().getArtifactStatus(
            ArtifactStatusRequest.newBuilder().setSha256("a\u0000b").build()), Code.INVALID_ARGUMENT,
            "'a?b' is not a sha256", "64 hex digits"));
  }
}
