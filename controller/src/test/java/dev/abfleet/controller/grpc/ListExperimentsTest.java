package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.testkit.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListExperimentsTest extends ControllerNodeTest {

  @Test
  void listsNewestFirstByStatePagedAndAfterARestart(@TempDir Path dir) throws Exception {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      for (String id : List.of("e-1", "e-2", "e-3")) {
        submit(client, id, 6);
        // Distinct submission times: the next one is submitted after this one's millisecond.
        long created = client.listExperiments(ListExperimentsRequest.getDefaultInstance()).getExperimentsList()
            .stream().filter(e -> e.getExperimentId().equals(id)).findFirst().orElseThrow().getCreatedAtMs();
        Eventually.await("the clock past " + id + "'s submission", Duration.ofSeconds(5),
            () -> System.currentTimeMillis() > created);
      }
      client.cancelExperiment(CancelExperimentRequest.newBuilder().setExperimentId("e-2")
          .setReason("not needed").build());

      assertThat(ids(client.listExperiments(ListExperimentsRequest.getDefaultInstance())))
          .containsExactly("e-3", "e-2", "e-1");
      ListExperimentsResponse cancelled = client.listExperiments(
          ListExperimentsRequest.newBuilder().addStates("cancelled").build());
      assertThat(cancelled.getExperimentsList()).singleElement().satisfies(e -> {
        assertThat(e.getExperimentId()).isEqualTo("e-2");
        assertThat(e.getName()).isEqualTo("ab");
        assertThat(e.getPriority()).isEqualTo("pr");
        assertThat(e.getPairsWanted()).isEqualTo(6);
        assertThat(e.getMessage()).isEqualTo("not needed");
        assertThat(e.getCreatedAtMs()).isPositive();
      });
      assertThat(ids(client.listExperiments(
          ListExperimentsRequest.newBuilder().addStates("running").build())))
          .containsExactly("e-3", "e-1");
      channel.shutdownNow();
    }

    try (ControllerNode restarted = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(restarted);
      var client = client(channel);
      List<String> paged = new ArrayList<>();
      String token = "";
      int pages = 0;
      do {
        ListExperimentsResponse page = client.listExperiments(ListExperimentsRequest.newBuilder()
            .setPageSize(2).setPageToken(token).build());
        paged.addAll(ids(page));
        token = page.getNextPageToken();
        pages++;
      } while (!token.isEmpty());
      assertThat(paged).containsExactly("e-3", "e-2", "e-1");
      assertThat(pages).isEqualTo(2);
      channel.shutdownNow();
    }
  }

  @Test
  void rejectsAnUnknownStateNamingTheKnownOnes(@TempDir Path dir) throws Exception {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(node);
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> client(channel).listExperiments(
          ListExperimentsRequest.newBuilder().addStates("done").build()));
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> client(channel).listExperiments(
          ListExperimentsRequest.newBuilder().setPageToken("garbage").build()));
      channel.shutdownNow();
    }
  }

  @Test
  void experimentsWithoutACatalogueRowAreListedAfterARestart(@TempDir Path dir) throws Exception {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(node);
      submit(client(channel), "e-old-1", 6);
      submit(client(channel), "e-old-2", 6);
      channel.shutdownNow();
    }
    // A store written before the catalogue existed (or a crash between a journal write and its row).
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(settings.storeUrl(), "sa", "");
        java.sql.Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("DELETE FROM abfleet_experiments")).isEqualTo(2);
    }

    try (ControllerNode restarted = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(restarted);
      Eventually.await("both experiments listed", Duration.ofSeconds(20), () -> ids(client(channel)
          .listExperiments(ListExperimentsRequest.getDefaultInstance())).size() == 2);
      assertThat(ids(client(channel).listExperiments(ListExperimentsRequest.getDefaultInstance())))
          .containsExactlyInAnyOrder("e-old-1", "e-old-2");
      channel.shutdownNow();
    }
  }

  @Test
  void anInMemoryJournalCannotBeListed() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel channel = channel(node);
      assertStatus(Status.Code.FAILED_PRECONDITION, () -> client(channel).listExperiments(
          ListExperimentsRequest.getDefaultInstance()));
      channel.shutdownNow();
    }
  }

  private static List<String> ids(ListExperimentsResponse r) {
    return r.getExperimentsList().stream().map(ExperimentSummary::getExperimentId).toList();
  }
}
