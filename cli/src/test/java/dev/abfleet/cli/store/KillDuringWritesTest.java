package dev.abfleet.cli.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.Main;
import dev.abfleet.cli.MainRun;
import dev.abfleet.cli.TestJvm;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.testkit.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A controller process killed with SIGKILL while it writes leaves a store that opens, with every acknowledged experiment. */
class KillDuringWritesTest {
  private static final Pattern GRPC = Pattern.compile("abfleet controller: gRPC on 127\\.0\\.0\\.1:(\\d+)");
  private static final int WRITERS = 4;

  @TempDir Path dir;

  @Test
  void aStoreKilledDuringWritesOpensWithEveryAcknowledgedExperiment() throws Exception {
    Path home = dir.resolve("home");
    Process p = TestJvm.start(dir, "controller", Main.class, "controller", "--plaintext", "--grpc-port", "0",
        "--cluster-port", "0", "--home", home.toString());
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    try {
      String err = Eventually.until("the controller serving", Duration.ofSeconds(150), () -> {
        String e = TestJvm.read(dir, "controller.err");
        assertThat(p.isAlive()).as(e).isTrue();
        return e;
      }, e -> GRPC.matcher(e).find());
      Matcher m = GRPC.matcher(err);
      assertThat(m.find()).isTrue();
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(m.group(1)))
          .usePlaintext().build();
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        Thread t = new Thread(() -> {
          var client = ExperimentServiceGrpc.newBlockingStub(channel);
          for (int i = 0; writing.get(); i++) {
            String id = String.format(Locale.ROOT, "e-kill-%d-%05d", writer, i);
            try {
              client.withDeadlineAfter(10, TimeUnit.SECONDS).submitExperiment(
                  SubmitExperimentRequest.newBuilder().setExperimentId(id).setSpec(spec()).build());
              acknowledged.add(id);
            } catch (StatusRuntimeException e) {
              if (e.getStatus().getCode() != io.grpc.Status.Code.RESOURCE_EXHAUSTED) {
                return; // killed
              }
              sleep(20); // the per-client rate limit: keep writing at its pace
            }
          }
        });
        t.start();
        writers.add(t);
      }
      Eventually.await("300 experiments acknowledged", Duration.ofSeconds(120), () -> acknowledged.size() >= 300);
      p.destroyForcibly(); // SIGKILL: no shutdown hook, no H2 close
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      writing.set(false);
      for (Thread t : writers) {
        t.join(30_000);
      }
      channel.shutdownNow();
    } finally {
      p.destroyForcibly();
    }

    MainRun.Result check = MainRun.run("store", "check", "--home", home.toString());
    assertThat(check.exit()).as(check.err()).isEqualTo(ExitCodes.OK);

    ControllerSettings settings = ControllerSettings.defaults().withGrpc("127.0.0.1", 0).withStore(
        ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(home.resolve("store").resolve("controller")))
        // The check below asks for each of hundreds of experiments: not a client to rate-limit.
        .withLimits(dev.abfleet.model.Limits.unlimited());
    try (ControllerNode node = ControllerNode.start(settings)) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build();
      try {
        var client = ExperimentServiceGrpc.newBlockingStub(channel);
        List<String> lost = new ArrayList<>();
        for (String id : acknowledged) {
          try {
            assertThat(client.getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build())
                .getSpec().getName()).isEqualTo("kill");
          } catch (StatusRuntimeException e) {
            lost.add(id + ": " + e.getStatus().getCode());
          }
        }
        assertThat(lost).as("acknowledged, then lost with the process").isEmpty();
        Eventually.await("every acknowledged experiment listed", Duration.ofSeconds(60),
            () -> listAll(client).containsAll(acknowledged));
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Set<String> listAll(ExperimentServiceGrpc.ExperimentServiceBlockingStub client) {
    Set<String> ids = new HashSet<>();
    String token = "";
    do {
      ListExperimentsResponse r = client.listExperiments(ListExperimentsRequest.newBuilder()
          .setPageSize(1000).setPageToken(token).build());
      r.getExperimentsList().stream().map(ExperimentSummary::getExperimentId).forEach(ids::add);
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    return ids;
  }

  private static ExperimentSpec spec() {
    return dev.abfleet.cli.experiments.ListBenchCommand.placeholderSpec("kill");
  }
}
