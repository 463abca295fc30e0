package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.Eventually;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** An {@code ab --controller} process's experiment: its id, and whether its samples are whole. */
final class AbSubmissions {
  private static final Pattern SUBMITTED = Pattern.compile("experiment (\\S+) submitted to ");

  private AbSubmissions() {}

  /** The id that {@code ab} (log "ab" of {@code fleet}) printed on submitting, within {@code limit}. */
  static String awaitSubmitted(LocalProcesses fleet, Process ab, Duration limit) {
    Matcher m = Eventually.until("ab submitting", limit, () -> {
      String log = fleet.log("ab");
      assertThat(ab.isAlive()).as("ab is running: %s", log).isTrue();
      return SUBMITTED.matcher(log);
    }, Matcher::find);
    return m.group(1);
  }

  /** Waits until the experiment, still running, has {@code pairs} pairs (it resumed, after a kill). */
  static void awaitRunningPairs(LocalProcesses fleet, String id, int pairs, Duration limit) throws Exception {
    try (ExperimentClient client = new ExperimentClient(fleet.target())) {
      Eventually.until("experiment " + id + " running with " + pairs + " pairs", limit, () -> {
        Experiment e = client.get(id);
        assertThat(e.getState()).as(e.getMessage()).isEqualTo("running");
        return e;
      }, e -> e.getPairsDone() >= pairs);
    }
  }

  /**
   * The experiment completed with exactly {@code pairs} pairs: every run id once, every (pair
   * index, arm) once, pair indices exactly 0..pairs-1 (nothing lost, nothing duplicated).
   */
  static void assertEveryPairOnce(Experiment done, int pairs) {
    assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
    assertThat(done.getPairsDone()).isEqualTo(pairs);
    Set<String> runIds = new HashSet<>();
    Set<String> pairArm = new HashSet<>();
    for (Boot b : done.getBootsList()) {
      assertThat(runIds.add(b.getRunId())).as("run recorded once: " + b.getRunId()).isTrue();
      if (!b.getWarmup()) {
        assertThat(pairArm.add(b.getPairIndex() + "/" + b.getArm()))
            .as("one boot per pair and arm: " + b.getRunId()).isTrue();
      }
    }
    assertThat(pairArm).hasSize(2 * pairs);
    Set<Integer> indices = done.getBootsList().stream().filter(b -> !b.getWarmup())
        .map(Boot::getPairIndex).collect(Collectors.toCollection(TreeSet::new));
    assertThat(indices).containsExactlyElementsOf(IntStream.range(0, pairs).boxed().toList());
  }
}
