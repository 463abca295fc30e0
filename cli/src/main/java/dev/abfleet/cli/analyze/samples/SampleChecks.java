package dev.abfleet.cli.analyze.samples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks JSON Lines samples against each other, over all input files, before analysis. Each
 * rule stops a mistake that would otherwise change a result without a word:
 * <ul>
 *   <li>A metric has one unit in an experiment. Two units would split it into two metrics,
 *       each missing on half the boots.
 *   <li>A boot has one host and one pair.
 *   <li>A boot has one measured value per metric and iteration. Several measured lines of one
 *       boot and metric are its iterations and must carry distinct {@code iteration} numbers;
 *       an unnumbered line is the boot's only value. A second value would silently enter the
 *       boot's median. Warm-up lines are dropped before the median and not checked.
 * </ul>
 */
public final class SampleChecks {
  private SampleChecks() {}

  private record MetricKey(String experiment, String metric) {}

  private record BootKey(String experiment, String arm, String boot) {}

  private record ValueKey(BootKey boot, String metric) {}

  /** The measured lines of one boot and metric seen so far. */
  private static final class Values {
    Sample unnumbered;
    final Map<Integer, Sample> byIteration = new HashMap<>();

    Sample any() {
      return unnumbered != null ? unnumbered : byIteration.values().iterator().next();
    }
  }

  /** One error per offending line, naming the line it conflicts with; empty when all agree. */
  public static List<ParseError> check(List<Sample> samples) {
    List<ParseError> errors = new ArrayList<>();
    Map<MetricKey, Sample> units = new HashMap<>();
    Map<BootKey, Sample> boots = new HashMap<>();
    Map<ValueKey, Values> values = new HashMap<>();
    for (Sample s : samples) {
      BootKey boot = new BootKey(s.experiment(), s.arm(), s.boot());
      String problem = placement(boots.computeIfAbsent(boot, b -> s), s);
      if (problem == null && !s.failed()) {
        problem = unit(units.computeIfAbsent(new MetricKey(s.experiment(), s.metric()), m -> s), s);
      }
      if (problem == null && !s.failed() && !s.warmup()) {
        problem = value(values.computeIfAbsent(new ValueKey(boot, s.metric()), k -> new Values()), s);
      }
      if (problem != null) {
        errors.add(ParseError.at(s.where(), problem));
      }
    }
    return errors;
  }

  private static String placement(Sample first, Sample s) {
    if (!Objects.equals(first.host(), s.host()) || !Objects.equals(first.pair(), s.pair())) {
      return "boot " + s.boot() + " is on " + placement(s) + " here but on " + placement(first) + " at "
          + first.where() + "; a boot runs once, on one host: fix its host and pair or give it"
          + " another boot id";
    }
    return null;
  }

  private static String placement(Sample s) {
    return (s.host() == null ? "no host" : "host " + s.host()) + ", "
        + (s.pair() == null ? "no pair" : "pair " + s.pair());
  }

  private static String unit(Sample first, Sample s) {
    if (!Objects.equals(first.unit(), s.unit())) {
      return "metric " + s.metric() + " is in " + unit(s.unit()) + " here but in " + unit(first.unit())
          + " at " + first.where() + "; a metric has one unit per experiment: convert the values"
          + " or give one of them another metric name";
    }
    return null;
  }

  private static String unit(String unit) {
    return unit == null ? "no unit" : "'" + unit + "'";
  }

  private static String value(Values seen, Sample s) {
    if (seen.unnumbered == null && seen.byIteration.isEmpty()) {
      if (s.iteration() == null) {
        seen.unnumbered = s;
      } else {
        seen.byIteration.put(s.iteration(), s);
      }
      return null;
    }
    String what = "boot " + s.boot() + ", metric " + s.metric();
    if (s.iteration() == null || seen.unnumbered != null) {
      Sample other = seen.any();
      return what + ": a second value (" + s.value() + " here, " + other.value() + " at "
          + other.where() + "); several values of a boot are its iterations and need distinct"
          + " \"iteration\" numbers (0, 1, ...), else remove the duplicate line";
    }
    Sample other = seen.byIteration.putIfAbsent(s.iteration(), s);
    if (other == null) {
      return null;
    }
    what += ", iteration " + s.iteration();
    if (other.value() == s.value()) {
      return "repeats " + other.where() + " (" + what + "); remove the duplicate line";
    }
    return what + ": " + s.value() + " here but " + other.value() + " at " + other.where()
        + "; an iteration has one value: remove the wrong line";
  }
}
