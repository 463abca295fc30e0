package dev.abfleet.cli.analyze;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.HostClasses;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Analyses every experiment in the samples on its own, in parallel (experiments are
 * independent), results in order of first appearance. Each experiment is one family: its
 * gating metrics over all candidate arms share the family-wise alpha.
 */
final class Analyzer {
  private Analyzer() {}

  /**
   * @throws IllegalArgumentException naming the experiment that cannot be analysed
   */
  static List<ExperimentResult> analyze(List<Sample> samples, String baseline, Integer maxPairs,
      Policy policy, long seed) {
    Map<String, List<Sample>> byExperiment = ExperimentData.byExperiment(samples);
    List<Map.Entry<String, List<Sample>>> entries = new ArrayList<>(byExperiment.entrySet());
    String first = samples.isEmpty() ? null : samples.get(0).arm();
    return entries.parallelStream()
        .map(e -> one(ExperimentData.build(e.getKey(), e.getValue(),
            baseline != null ? baseline : baselineOf(e.getValue(), first), maxPairs,
            policy.alpha()), policy, seed))
        .toList();
  }

  /**
   * Without --baseline: the first arm of the whole input, so that every experiment of a file
   * has the same baseline whatever order its boots ran in; an experiment without that arm
   * falls back to its own first arm (null).
   */
  private static String baselineOf(List<Sample> experiment, String first) {
    return experiment.stream().anyMatch(s -> s.arm().equals(first)) ? first : null;
  }

  /**
   * One experiment; with host classes in the samples, each input's pooled row then its class
   * rows ({@link HostClasses}), the arm list expanded to match.
   */
  static ExperimentResult one(ExperimentData.Built b, Policy policy, long seed) {
    List<HostClasses.Input> inputs = new ArrayList<>();
    for (int i = 0; i < b.inputs().size(); i++) {
      inputs.add(new HostClasses.Input(b.inputs().get(i), b.classes().get(i)));
    }
    List<List<Comparison>> rows = HostClasses.compare(inputs, policy, seed);
    List<Comparison> comparisons = new ArrayList<>();
    List<String> arms = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      comparisons.addAll(rows.get(i));
      for (int r = 0; r < rows.get(i).size(); r++) {
        arms.add(b.arms().get(i));
      }
    }
    return new ExperimentResult(b.experiment(), b.baseline(), b.candidates(), b.paired(),
        b.pairs(), policy, List.copyOf(comparisons), List.copyOf(arms), b.bootFailures(),
        ExperimentResult.overall(comparisons, b.bootFailures()));
  }
}
