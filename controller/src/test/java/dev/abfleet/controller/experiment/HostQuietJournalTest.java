package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.jupiter.api.Test;

/** The quiet-host policy's events and fields survive the journal; older journals read back without them. */
class HostQuietJournalTest extends EntityTestKit {

  private ObjectMapper cbor() {
    return JacksonObjectMapperProvider.get(kit.system()).getOrCreate("jackson-cbor", Optional.empty());
  }

  @Test
  void blockAbandonedForInterferenceSurvivesTheJournal() throws Exception {
    BlockAbandoned e = new BlockAbandoned("e1-p0-a0", "host h1 was not quiet", false, false, false, true);

    BlockAbandoned back = cbor().readValue(cbor().writeValueAsBytes(e), BlockAbandoned.class);

    assertThat(back).isEqualTo(e);
  }

  @Test
  void blockAbandonedFromBeforeThePolicyReadsAsNotInterfered() throws Exception {
    BlockAbandoned e = new BlockAbandoned("e1-p0-a0", "infra failure", true, true);
    ObjectNode tree = cbor().valueToTree(e);

    assertThat(tree.has("interfered")).isFalse();
    BlockAbandoned back = cbor().treeToValue(tree, BlockAbandoned.class);
    assertThat(back.interfered()).isFalse();
  }

  @Test
  void rerunBootSurvivesTheJournalAndCountingBootsAreWrittenAsBefore() throws Exception {
    RunOutcome counted = Specs.ok("r1", "h1", 1, 1000);
    RunOutcome kept = counted.asRerun();

    assertThat(cbor().readValue(cbor().writeValueAsBytes(kept), RunOutcome.class).rerun()).isTrue();
    assertThat(cbor().valueToTree(counted).has("rerun")).isFalse();
  }

  @Test
  void policyJournaledBeforeHostQuietReplaysWithoutOne() throws Exception {
    PolicySpec p = Specs.ab(4, 7).policy().withHostQuiet(HostQuiet.DEFAULTS);
    ObjectNode tree = cbor().valueToTree(p);
    assertThat(tree.has("hostQuiet")).isTrue();
    tree.remove("hostQuiet");

    PolicySpec back = cbor().treeToValue(tree, PolicySpec.class);

    assertThat(back.hostQuiet()).isEqualTo(HostQuiet.OFF);
    assertThat(back.hostQuiet().on()).isFalse();
    assertThat(back.hostQuiet().reruns()).isFalse();
    // and an experiment without the policy journals no field for it
    assertThat(cbor().valueToTree(Specs.ab(4, 7).policy()).has("hostQuiet")).isFalse();
  }

  @Test
  void theDefaultPolicyRoundTrips() throws Exception {
    PolicySpec p = Specs.ab(4, 7).policy().withHostQuiet(HostQuiet.DEFAULTS);

    HostQuiet back = cbor().readValue(cbor().writeValueAsBytes(p), PolicySpec.class).hostQuiet();

    assertThat(back).isEqualTo(HostQuiet.DEFAULTS);
    assertThat(back.cpuSomePct()).isEqualTo(10);
    assertThat(back.maxWaitS()).isEqualTo(60);
    assertThat(back.reruns()).isTrue();
    assertThat(back.maxRerunsPerPair()).isEqualTo(2);
  }

  @Test
  void stateWithRerunsSurvivesASnapshot() throws Exception {
    HostQuietDecisionsTest run = new HostQuietDecisionsTest();
    run.submit(HostQuietDecisionsTest.rerun(2), 2);
    run.runBlock(run.start(), RunOutcome.Status.OK, HostQuietDecisionsTest.BUSY);

    ExperimentState back = cbor().readValue(cbor().writeValueAsBytes(run.state), ExperimentState.class);

    assertThat(back.interferedReruns()).isEqualTo(run.state.interferedReruns()).containsEntry(0, 1);
    assertThat(back.reruns()).isEqualTo(run.state.reruns()).hasSize(2);
  }

  @Test
  void theEntityRecoversItsRerunsFromTheJournal() {
    ExperimentSpec s = Specs.ab(2, 7);
    ExperimentSpec spec = new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        s.policy().withHostQuiet(HostQuietDecisionsTest.rerun(2)), s.priority());
    ExperimentWarmupTest kit = new ExperimentWarmupTest();
    kit.entity = entity;
    kit.submit(spec);
    var block = kit.plan("h1", 1);
    List<RecordResult> results = new java.util.ArrayList<>();
    for (var run : block.runs()) {
      results.add(kit.record(block, HostQuietDecisionsTest.boot(run, 1, RunOutcome.Status.OK,
          run.orderInPair() == 0 ? HostQuietDecisionsTest.BUSY : HostQuietDecisionsTest.QUIET)));
    }

    ExperimentState recovered = entity.restart().state();

    assertThat(results).containsExactly(RecordResult.RECORDED, RecordResult.ABANDONED);
    assertThat(recovered.interferedReruns()).containsEntry(block.pairIndex(), 1);
    assertThat(recovered.reruns()).hasSize(2).allMatch(RunOutcome::rerun);
    assertThat(ExperimentView.of(recovered).interferedReruns()).isEqualTo(1);
    assertThat(recovered.nextPair()).hasValue(block.pairIndex());
  }
}
