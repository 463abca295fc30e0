package dev.abfleet.cli.upload;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.artifact.ArtifactServiceImpl;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import dev.abfleet.worker.modules.ModulePack;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Module trees beside a local kernel travel packed, like the kernel; over an in-process store. */
class SpecUploadsModulesTest {
  private static final String RELEASE = "6.1.0-50-amd64";

  @TempDir Path dir;
  private Server server;
  private ManagedChannel channel;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(ArtifactServiceImpl.open(new ArtifactStoreSettings(dir.resolve("store"), 64L << 20)))
        .build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void uploadsThePackedTreeBesideTheKernelInsteadOfNamingItsPath() throws Exception {
    Path kernel = packageWithTree();

    ExperimentSpec sent = uploads().upload(spec(kernel, ""));

    Arm arm = sent.getArms(0);
    String sha = arm.getBoot().getModulesTree().getSha256();
    assertThat(arm.getBoot().getModulesTree().getUri()).isEqualTo("abfleet:sha256:" + sha);
    assertThat(arm.getBoot().getModulesDir()).isEmpty();
    assertThat(store().status(sha).getComplete()).isTrue();
    Path packed = dir.resolve("cache/modules/packs").resolve(sha + ".tar");
    assertThat(ArtifactCache.sha256(packed)).isEqualTo(sha);
    assertThat(ModulePack.unpack(packed, sha, dir.resolve("worker")).dir().resolve("kernel/fs/9p/9p.ko"))
        .hasContent("ELF of 9p.ko");
  }

  @Test
  void packsTheSameTreeOnceForTwoSubmits() throws Exception {
    Path kernel = packageWithTree();

    String first = uploads().upload(spec(kernel, "")).getArms(0).getBoot().getModulesTree().getSha256();
    String second = uploads().upload(spec(kernel, "")).getArms(0).getBoot().getModulesTree().getSha256();

    assertThat(second).isEqualTo(first);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("is on the controller already (sha256 "
        + first.substring(0, 12));
  }

  @Test
  void leavesAModulesDirThatIsNoDirectoryHereAsAPathOnTheWorkers() throws Exception {
    Path kernel = packageWithTree();

    Arm arm = uploads().upload(spec(kernel, "/srv/kernels/lib/modules/" + RELEASE)).getArms(0);

    assertThat(arm.getBoot().getModulesDir()).isEqualTo("/srv/kernels/lib/modules/" + RELEASE);
    assertThat(arm.getBoot().hasModulesTree()).isFalse();
  }

  @Test
  void aControllerThatFindsItsNightlyKernelsPacksTheirTreesAsTheClientDoes() throws Exception {
    Path kernel = packageWithTree();

    // The preparer abfleet controller gives its nightly runs (ControllerConfigs.nightly).
    var nightly = dev.abfleet.cli.ControllerConfigsAccess.nightlyPreparer(dir.resolve("cache"));
    Arm arm = nightly.apply(spec(kernel, "")).getArms(0);

    String sha = arm.getBoot().getModulesTree().getSha256();
    assertThat(arm.getBoot().getModulesDir()).isEmpty();
    assertThat(arm.getBoot().getModulesTree().getUri()).isEqualTo(dir.resolve("cache/modules/packs").resolve(sha + ".tar").toString());
    assertThat(ModulePack.unpack(Path.of(arm.getBoot().getModulesTree().getUri()), sha, dir.resolve("worker")).dir()
        .resolve("kernel/fs/9p/9p.ko")).hasContent("ELF of 9p.ko");
  }

  private SpecUploads uploads() {
    return new SpecUploads(store(), call -> call.get(), dir.resolve("cache"),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private ControllerArtifacts store() {
    return new ControllerArtifacts(channel, "test");
  }

  private static ExperimentSpec spec(Path kernel, String modulesDir) throws IOException {
    return ExperimentSpec.newBuilder()
        .setSelector(HostSelector.newBuilder().setHypervisor("qemu"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat").setVolume("host"))
        .addArms(Arm.newBuilder().setName("base").setBoot(BootSpec.newBuilder().setModulesDir(modulesDir)
            .setKernel(Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel)).setUri(kernel.toString()))))
        .build();
  }

  /** pkg/boot/vmlinuz-R and pkg/lib/modules/R with 9p, its dependencies and an unrelated module. */
  private Path packageWithTree() throws IOException {
    Path root = dir.resolve("pkg");
    Path kernel = Files.writeString(Files.createDirectories(root.resolve("boot")).resolve("vmlinuz-" + RELEASE), "k");
    Path tree = Files.createDirectories(root.resolve("lib/modules").resolve(RELEASE));
    String dep = """
        kernel/fs/netfs/netfs.ko:
        kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko
        kernel/net/9p/9pnet.ko:
        kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko:
        """;
    Files.writeString(tree.resolve("modules.dep"), dep);
    for (String line : dep.lines().toList()) {
      Path ko = tree.resolve(line.substring(0, line.indexOf(':')));
      Files.createDirectories(ko.getParent());
      Files.writeString(ko, "ELF of " + ko.getFileName());
    }
    return kernel;
  }
}
