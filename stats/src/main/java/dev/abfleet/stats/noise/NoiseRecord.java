package dev.abfleet.stats.noise;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * What A/A experiments measured on one host class: how many experiments, how many of them had a
 * gating metric called improved or regressed (each a false positive of the family), and the noise
 * of each metric.
 *
 * @param hostClass the host-class label the reports use, e.g. {@code qemu/tcg}
 * @param date the day of the latest A/A experiment merged in (UTC)
 * @param gating the gating metrics of those experiments (the family the false-positive rate is of)
 */
public record NoiseRecord(String hostClass, long experiments, long falsePositives, LocalDate date,
    List<String> gating, List<MetricNoise> metrics) {

  public NoiseRecord {
    gating = List.copyOf(gating);
    metrics = List.copyOf(metrics);
  }

  /** What a SIMULATED class's record says wherever it is shown: its noise is the sim model's. */
  public static final String SIMULATION = "SIMULATION";

  /**
   * True for a class of sim hosts ({@code abfleet sim-fleet}): a class label starts with its
   * hypervisor ({@code sim/sim}, {@code sim/sim cpu=a}), and sim boots' figures come from the sim
   * performance model, so the record is fit for capacity planning only, never for a real host.
   */
  public boolean simulated() {
    return hostClass.startsWith("sim/");
  }

  /** The class label as tables show it: {@code sim/sim (SIMULATION)} for a sim class. */
  public String shownClass() {
    return simulated() ? hostClass + " (" + SIMULATION + ")" : hostClass;
  }

  /** The family-wise false-positive rate; NaN without experiments. */
  public double fpRate() {
    return experiments == 0 ? Double.NaN : falsePositives / (double) experiments;
  }

  /**
   * Both records as one: experiments, false positives, boots and pairs add up (each A/A
   * experiment is an independent draw of the same noise, so the estimates only get tighter),
   * the date is the later one, gating metrics are the union. A record of another class is a
   * programming error.
   */
  public NoiseRecord merge(NoiseRecord o) {
    if (!hostClass.equals(o.hostClass)) {
      throw new IllegalArgumentException("merging host class " + o.hostClass + " into " + hostClass);
    }
    Map<String, MetricNoise> byName = new LinkedHashMap<>();
    for (MetricNoise m : metrics) {
      byName.put(m.metric(), m);
    }
    for (MetricNoise m : o.metrics) {
      byName.merge(m.metric(), m, MetricNoise::merge);
    }
    LinkedHashSet<String> allGating = new LinkedHashSet<>(gating);
    allGating.addAll(o.gating);
    return new NoiseRecord(hostClass, experiments + o.experiments, falsePositives + o.falsePositives,
        date.isAfter(o.date) ? date : o.date, new ArrayList<>(allGating), new ArrayList<>(byName.values()));
  }

  /** The metric's noise, or null when it was not measured. */
  public MetricNoise metric(String name) {
    return metrics.stream().filter(m -> m.metric().equals(name)).findFirst().orElse(null);
  }
}
