package dev.abfleet.worker.link;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ControllerTargetsTest {

  @Test
  void parsesAListInOrder() {
    assertThat(ControllerTargets.parse("a:7070,127.0.0.1:7071,[::1]:7072")).containsExactly(
        new ControllerTargets.HostPort("a", 7070), new ControllerTargets.HostPort("127.0.0.1", 7071),
        new ControllerTargets.HostPort("::1", 7072));
  }

  @Test
  void rejectsAnEntryWithoutPortNamingIt() {
    assertThatThrownBy(() -> ControllerTargets.parse("a:7070,b"))
        .hasMessageStartingWith("'b': expected HOST:PORT");
    assertThatThrownBy(() -> ControllerTargets.parse("a:7070,"))
        .hasMessageStartingWith("'': expected HOST:PORT");
  }

  @Test
  void callsReachAnotherNodeWhenOneIsDown() throws Exception {
    int dead = freePort();
    Server first = node("first");
    Server second = node("second");
    ManagedChannel channel = ControllerTargets.channel("127.0.0.1:" + dead + ",127.0.0.1:"
        + first.getPort() + ",127.0.0.1:" + second.getPort()).build();
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      String answered = callUntilAnswered(stub);
      Server up = answered.equals("first") ? first : second;
      up.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

      String after = callUntilAnswered(stub);

      assertThat(after).isNotEqualTo(answered).isIn("first", "second");
    } finally {
      channel.shutdownNow();
      first.shutdownNow();
      second.shutdownNow();
    }
  }

  @Test
  void spreadsChannelsOverTheNodes() throws Exception {
    Server first = node("first");
    Server second = node("second");
    Set<String> seen = new HashSet<>();
    try {
      for (int i = 0; i < 20 && seen.size() < 2; i++) {
        ManagedChannel channel = ControllerTargets.channel("127.0.0.1:" + first.getPort()
            + ",127.0.0.1:" + second.getPort()).build();
        seen.add(callUntilAnswered(ExperimentServiceGrpc.newBlockingStub(channel)));
        channel.shutdownNow();
      }
      assertThat(seen).containsExactlyInAnyOrder("first", "second");
    } finally {
      first.shutdownNow();
      second.shutdownNow();
    }
  }

  /** Retries UNAVAILABLE as the CLI's Reconnect and the worker's link do. */
  private static String callUntilAnswered(ExperimentServiceGrpc.ExperimentServiceBlockingStub stub) {
    return Eventually.until("an answer", java.time.Duration.ofSeconds(5),
        () -> stub.withDeadlineAfter(2, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance())
            .getHosts(0).getHostId(), id -> true, e -> e instanceof StatusRuntimeException);
  }

  /** A server whose ListHosts answers one host named after the server. */
  private static Server node(String name) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new ExperimentServiceGrpc.ExperimentServiceImplBase() {
          @Override
          public void listHosts(ListHostsRequest request, StreamObserver<ListHostsResponse> out) {
            out.onNext(ListHostsResponse.newBuilder()
                .addHosts(Host.newBuilder().setHostId(name)).build());
            out.onCompleted();
          }
        })
        .build().start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
