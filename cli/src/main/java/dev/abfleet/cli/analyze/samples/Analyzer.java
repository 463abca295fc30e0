package dev.abfleet.cli.analyze.samples;

import dev.abfleet.stats.verdict.Assessor;
import dev.abfleet.report.BootRecord;
import dev.abfleet.stats.verdict.BootSample;
import dev.abfleet.report.Design;
import dev.abfleet.report.Report;
import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Analyses every experiment in the samples on its own, in parallel (experiments are
 * independent), reports in order of first appearance. The samples become the same boot records
 * a fleet run's boots become, and the same {@link Assessor} judges them: one family per
 * experiment, its gating metrics over all candidate arms sharing the family-wise alpha.
 */
public final class Analyzer {
  private Analyzer() {}

  /**
   * @param baseline the baseline arm; null = the first arm of the input
   * @param maxPairs use only the first N pairs (unpaired: the first N boots per arm); null = all
   * @throws IllegalArgumentException naming the experiment that cannot be analysed and the fix
   */
  public static List<Report> analyze(List<Sample> samples, String baseline, Integer maxPairs,
      Policy policy, long seed) {
    Map<String, List<Sample>> byExperiment = new LinkedHashMap<>();
    samples.forEach(s -> byExperiment.computeIfAbsent(s.experiment(), e -> new ArrayList<>()).add(s));
    String first = samples.isEmpty() ? null : samples.get(0).arm();
    return new ArrayList<>(byExperiment.entrySet()).parallelStream()
        .map(e -> one(e.getKey(), e.getValue(),
            baseline != null ? baseline : baselineOf(e.getValue(), first), maxPairs, policy, seed))
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

  public static Report one(String experiment, List<Sample> samples, String baselineArm,
      Integer maxPairs, Policy policy, long seed) {
    List<BootRecord> boots = boots(samples);
    List<String> arms = boots.stream().map(BootRecord::arm).distinct().toList();
    String baseline = baselineArm == null ? arms.get(0) : baselineArm;
    if (!arms.contains(baseline)) {
      throw new IllegalArgumentException("experiment " + experiment + ": no arm '" + baseline
          + "'; its arms are " + String.join(", ", arms) + " (see --baseline)");
    }
    List<String> candidates = arms.stream().filter(a -> !a.equals(baseline)).toList();
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("experiment " + experiment + ": only arm '" + baseline
          + "' has samples; a comparison needs a baseline and at least one candidate");
    }
    Design design = new Design(experiment, baseline, candidates, "", List.of(), Set.of(), policy,
        seed, maxPairs);
    return new Report(design, Assessor.assess(design.verdict(), boots), null);
  }

  /**
   * One record per (arm, boot id), in order of first appearance: its lines' values are the
   * boot's iterations; any failed line makes it a failed boot. Its order is that of its first
   * line; host, pair and host class come from the first line that gives them.
   */
  public static List<BootRecord> boots(List<Sample> samples) {
    Map<String, List<Sample>> byBoot = new LinkedHashMap<>();
    samples.forEach(s -> byBoot.computeIfAbsent(s.arm() + "\u0000" + s.boot(),
        k -> new ArrayList<>()).add(s));
    List<BootRecord> out = new ArrayList<>();
    for (List<Sample> lines : byBoot.values()) {
      Sample head = lines.get(0);
      boolean failed = lines.stream().anyMatch(Sample::failed);
      List<BootSample> values = lines.stream().filter(s -> !s.failed())
          .map(s -> new BootSample(s.metric(), s.value(), s.unit(), s.better(), s.warmup()))
          .toList();
      out.add(new BootRecord(head.boot(), head.arm(),
          lines.stream().map(Sample::host).filter(h -> h != null).findFirst().orElse(null),
          lines.stream().map(Sample::pair).filter(p -> p != null).findFirst().orElse(null),
          lines.stream().mapToLong(Sample::order).min().orElse(0),
          failed ? "boot_failed" : BootRecord.OK,
          lines.stream().map(Sample::hostClass).filter(c -> c != null).findFirst().orElse(null),
          "", false, failed ? List.of() : values, null));
    }
    return out;
  }
}
