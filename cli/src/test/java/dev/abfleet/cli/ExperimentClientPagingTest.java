package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ExperimentClientPagingTest {
  private final Experiment whole = Experiment.newBuilder().setExperimentId("e-1").setState("completed")
      .addAllBoots(IntStream.range(0, 7).mapToObj(i -> Boot.newBuilder().setRunId("r" + i).build()).toList())
      .build();
  private final List<GetExperimentRequest> asked = new ArrayList<>();

  /** A controller answering three boots a page, tokens being offsets. */
  private Experiment threeAPage(GetExperimentRequest request) {
    asked.add(request);
    int from = request.getBootsPageToken().isEmpty() ? 0 : Integer.parseInt(request.getBootsPageToken());
    int to = Math.min(from + 3, whole.getBootsCount());
    return whole.toBuilder().clearBoots().addAllBoots(whole.getBootsList().subList(from, to))
        .setNextBootsPageToken(to < whole.getBootsCount() ? Integer.toString(to) : "").build();
  }

  @Test
  void fetchesEveryPageOfBootsInOrder() {
    Experiment got = ExperimentClient.allBoots(this::threeAPage, "e-1");

    assertThat(got).isEqualTo(whole);
    assertThat(asked).extracting(GetExperimentRequest::getBootsPageToken).containsExactly("", "3", "6");
    assertThat(asked).extracting(GetExperimentRequest::getExperimentId).containsOnly("e-1");
  }

  @Test
  void oneCallWhenEverythingFits() {
    Experiment got = ExperimentClient.allBoots(request -> {
      asked.add(request);
      return whole;
    }, "e-1");

    assertThat(got).isSameAs(whole);
    assertThat(asked).hasSize(1);
  }
}
