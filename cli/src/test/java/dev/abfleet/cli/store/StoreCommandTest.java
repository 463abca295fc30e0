package dev.abfleet.cli.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.H2Controller;
import dev.abfleet.cli.MainRun;
import dev.abfleet.cli.StoreLock;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreCommandTest {
  private static final List<String> IDS = List.of("e-store-1", "e-store-2", "e-store-3");

  @TempDir Path dir;

  @Test
  void checkReadsAHealthyStoreAndCountsItsExperiments() throws Exception {
    submitAll(H2Controller.under(dir));

    MainRun.Result check = MainRun.run("store", "check", "--home", dir.toString());

    assertThat(check.exit()).as(check.err()).isEqualTo(ExitCodes.OK);
    assertThat(check.out()).startsWith("store " + dir.resolve("store").resolve("controller.mv.db")
        + " is readable: 3 experiments, ");
  }

  @Test
  void checkDetectsACorruptedFileAndRestoreBringsTheBackupBack() throws Exception {
    H2Controller controller = H2Controller.under(dir);
    submitAll(controller);
    Path backup = dir.resolve("backup.sql.gz");
    MainRun.Result saved = MainRun.run("store", "backup", "--home", dir.toString(), "--to", backup.toString());
    assertThat(saved.exit()).as(saved.err()).isEqualTo(ExitCodes.OK);
    assertThat(saved.out()).contains(": 3 experiments, ");

    corrupt(dir.resolve("store").resolve("controller.mv.db"));
    MainRun.Result check = MainRun.run("store", "check", "--home", dir.toString());
    assertThat(check.exit()).as(check.out()).isEqualTo(ExitCodes.FAILED);
    assertThat(check.err()).contains("abfleet store check: the store is damaged: ")
        .contains("abfleet store restore --from FILE");

    MainRun.Result restored = MainRun.run("store", "restore", "--home", dir.toString(), "--from", backup.toString());
    assertThat(restored.exit()).as(restored.err()).isEqualTo(ExitCodes.OK);
    assertThat(restored.out()).contains(": 3 experiments, ");
    assertThat(restored.err()).contains("kept the store that was there as ");
    try (ControllerNode node = controller.start()) {
      assertThat(list(node)).extracting(ExperimentSummary::getExperimentId).containsExactlyInAnyOrderElementsOf(IDS);
    }
  }

  @Test
  void refusesToTouchTheStoreOfARunningController() {
    try (StoreLock lock = StoreLock.acquire(dir.resolve("store"), "test", "stop it")) {
      MainRun.Result check = MainRun.run("store", "check", "--home", dir.toString());

      assertThat(check.exit()).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(check.err()).contains("--home " + dir + " is in use by another controller")
          .contains("wait until it has stopped");
    }
  }

  @Test
  void backupNeverOverwritesAFile() throws Exception {
    Path existing = Files.writeString(dir.resolve("old.sql.gz"), "keep me");

    MainRun.Result r = MainRun.run("store", "backup", "--home", dir.toString(), "--to", existing.toString());

    assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).isEqualTo("abfleet: --to " + existing + " exists; choose a new file name"
        + " (a backup never overwrites one)\n");
    assertThat(Files.readString(existing)).isEqualTo("keep me");
  }

  /** Overwrites every other 4 KiB block after the file's two headers with random bytes. */
  private static void corrupt(Path file) throws Exception {
    Random random = new Random(29);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] garbage = new byte[4096];
      for (long at = 8192; at < f.length(); at += 8192) {
        random.nextBytes(garbage);
        f.seek(at);
        f.write(garbage);
      }
    }
  }

  private static void submitAll(H2Controller controller) {
    try (ControllerNode node = controller.start()) {
      ManagedChannel channel = channel(node);
      try {
        var client = ExperimentServiceGrpc.newBlockingStub(channel);
        for (String id : IDS) {
          client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id).setSpec(spec()).build());
        }
        assertThat(list(node)).hasSize(IDS.size());
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private static List<ExperimentSummary> list(ControllerNode node) {
    ManagedChannel channel = channel(node);
    try {
      return ExperimentServiceGrpc.newBlockingStub(channel)
          .listExperiments(ListExperimentsRequest.getDefaultInstance()).getExperimentsList();
    } finally {
      channel.shutdownNow();
    }
  }

  private static ManagedChannel channel(ControllerNode node) {
    return NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build();
  }

  private static ExperimentSpec spec() {
    return ExperimentSpec.newBuilder().setName("ab")
        .addArms(arm("base", "baseline", "a"))
        .addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setPolicy(Policy.newBuilder().setPairs(6).setSeed(17).addGatingMetrics("metadata_stat"))
        .setPriority("pr")
        .build();
  }

  private static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name)))
        .build();
  }
}
