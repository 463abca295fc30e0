package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Cross-host comparison: the same pairs judged per host class, and a pooled row that carries a
 * verdict only when every class agrees. Pure, like the rest of the engine.
 *
 * <p>A host class groups pairs that ran on comparable hosts; the caller names it (the
 * controller keys it by hypervisor and accelerator plus the dimensions an experiment asks for,
 * e.g. {@code qemu/kvm cpu=icelake}). Pairs of different classes are never pooled silently:
 *
 * <ul>
 *   <li>One class (or none named): the inputs are compared as they are, one row per input with
 *       an empty {@link Comparison#hostClass()}, exactly as {@link VerdictEngine#compare}.
 *   <li>k &ge; 2 classes: every input gets k class rows, all in ONE family: Holm's step-down and
 *       the joint intervals span inputs &times; classes (m = gating inputs &times; k), so the
 *       probability of any false improved/regressed on any class row stays &le; alpha.
 *   <li>Each input also gets a pooled row, first, with an empty host class. Its numbers, p and
 *       p_adjusted included, are those of all pairs together (the usual engine on the pooled
 *       pairs, host bootstrap included), so its p and its interval come from the same test. Its
 *       verdict is the classes' common verdict when they all agree, otherwise
 *       {@link Verdict#INCONCLUSIVE} with reason {@link Reasons#CLASS_HETEROGENEITY} and a
 *       warning naming each class's verdict and change. Agreement is an intersection-union test:
 *       the pooled claim is made only when every class row makes it, so it adds no false
 *       positive beyond those the family already bounds. When the pooled pairs alone would read
 *       differently from that verdict, a warning says so and gives the intersection-union p
 *       (the largest class p_adjusted) that the verdict rests on.
 * </ul>
 *
 * <p>Sequential policies: the classes are judged together at the look reached by the class with
 * the fewest pairs (each class's first looks[k] pairs), so a class that lags holds the family
 * at the earlier look. {@link #stopAt} stops early only when every gating class row is decided:
 * one class regressing does not end the experiment while another class is undecided.
 *
 * <p>Class labels are per pair (index = pair, like {@link MetricInput#hosts()}); a null or
 * blank label is the class {@value #UNKNOWN}. Unpaired inputs have no pairs: their labels are
 * ignored and they count as one class.
 */
public final class HostClasses {
  /** Class of a pair whose label is null or blank. */
  public static final String UNKNOWN = "unknown";

  private HostClasses() {}

  /**
   * One input and the host class of each of its pairs.
   *
   * @param classOfPair label per pair index, same length as the input's arrays; null = one class
   */
  public record Input(MetricInput input, String[] classOfPair) {}

  /** The distinct classes of the paired inputs, sorted; empty when none is labelled. */
  public static List<String> classes(List<Input> inputs) {
    Set<String> seen = new java.util.TreeSet<>();
    for (Input in : inputs) {
      if (labelled(in)) {
        for (int i = 0; i < VerdictEngine.length(in.input()); i++) {
          seen.add(label(in.classOfPair(), i));
        }
      }
    }
    return List.copyOf(seen);
  }

  /** Pairs per class (largest count over the inputs), by class name. */
  public static Map<String, Integer> pairsPerClass(List<Input> inputs) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Input in : inputs) {
      if (!labelled(in)) {
        continue;
      }
      Map<String, Integer> mine = new TreeMap<>();
      for (int i = 0; i < VerdictEngine.length(in.input()); i++) {
        mine.merge(label(in.classOfPair(), i), 1, Integer::sum);
      }
      mine.forEach((c, n) -> counts.merge(c, n, Math::max));
    }
    return counts;
  }

  /**
   * Rows per input, in input order: with k &ge; 2 classes the pooled row first, then one row per
   * class in {@link #classes} order; otherwise the single ordinary row. Never throws on
   * degenerate data (NaN and warnings instead).
   */
  public static List<List<Comparison>> compare(List<Input> inputs, Policy policy, long seed) {
    List<MetricInput> plain = inputs.stream().map(Input::input).toList();
    List<String> classes = classes(inputs);
    if (classes.size() < 2) {
      return VerdictEngine.compare(plain, policy, seed).stream().map(List::of).toList();
    }
    List<Comparison> family = judgeFamily(inputs, classes, policy, seed);
    List<Comparison> pooled = VerdictEngine.compare(plain, policy, seed);
    List<List<Comparison>> out = new ArrayList<>(inputs.size());
    int k = classes.size();
    for (int i = 0; i < inputs.size(); i++) {
      List<Comparison> rows = new ArrayList<>(k + 1);
      List<Comparison> perClass = new ArrayList<>(k);
      for (int c = 0; c < k; c++) {
        perClass.add(family.get(i * k + c).withHostClass(classes.get(c)));
      }
      rows.add(pooledRow(pooled.get(i), perClass));
      rows.addAll(perClass);
      out.add(List.copyOf(rows));
    }
    return List.copyOf(out);
  }

  /**
   * Whether a sequential experiment may stop at {@code look}: with one class, the plan's usual
   * decision ({@link Decision#stop()}); with several, only when every gating class row (every
   * row, when none gates) is decided.
   */
  public static boolean stopAt(int look, List<Input> inputs, Policy policy, long seed) {
    List<String> classes = classes(inputs);
    SequentialPlan plan = SequentialPlan.of(policy);
    if (classes.size() < 2) {
      return plan.decide(look, inputs.stream().map(Input::input).toList(), seed).stop();
    }
    List<MetricInput> family = family(inputs, classes);
    Decision d = plan.decide(look, family, seed);
    boolean anyGating = family.stream().anyMatch(MetricInput::gating);
    for (int i = 0; i < family.size(); i++) {
      if ((family.get(i).gating() || !anyGating) && !d.decided(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The pooled row: its own numbers (interval, p and p_adjusted of the pooled test), the
   * classes' common verdict or class heterogeneity.
   */
  static Comparison pooledRow(Comparison pooled, List<Comparison> perClass) {
    Set<Verdict> verdicts = new LinkedHashSet<>();
    double classP = 0;
    Set<String> reasons = new LinkedHashSet<>();
    for (Comparison c : perClass) {
      verdicts.add(c.verdict());
      classP = Double.isNaN(c.pAdjusted()) || Double.isNaN(classP) ? Double.NaN
          : Math.max(classP, c.pAdjusted());
      reasons.addAll(c.reasons());
    }
    List<String> warnings = new ArrayList<>();
    Verdict verdict;
    if (verdicts.size() == 1) {
      verdict = verdicts.iterator().next();
      if (verdict != Verdict.INCONCLUSIVE) {
        reasons.clear();
      }
    } else {
      verdict = Verdict.INCONCLUSIVE;
      reasons.clear();
      reasons.add(Reasons.CLASS_HETEROGENEITY);
      warnings.add("host classes disagree, no pooled verdict: " + String.join(", ",
          perClass.stream().map(HostClasses::describe).toList()));
    }
    if (pooled.verdict() != verdict) {
      warnings.add(String.format(Locale.ROOT, "the pooled pairs alone read %s (this row's"
          + " interval and p(adj.)); the pooled verdict is %s because it needs every host class"
          + " to agree (largest class p(adj.) %s)", pooled.verdict().wire(), verdict.wire(),
          Double.isNaN(classP) ? "n/a" : String.format(Locale.ROOT, "%.3g", classP)));
    }
    warnings.addAll(pooled.warnings());
    return pooled.withJudgement(verdict, pooled.pAdjusted(), List.copyOf(reasons), warnings)
        .withHostClass("");
  }

  private static String describe(Comparison c) {
    String change = Double.isNaN(c.change()) ? "n/a"
        : String.format(Locale.ROOT, "%+.1f%%", c.change() * 100);
    return c.hostClass() + " " + c.verdict().wire() + " (" + change + ")";
  }

  private static List<Comparison> judgeFamily(List<Input> inputs, List<String> classes,
      Policy policy, long seed) {
    List<MetricInput> family = family(inputs, classes);
    Policy pol = policy == null ? Policy.DEFAULT : policy;
    if (pol.looks().isEmpty()) {
      return VerdictEngine.compare(family, pol, seed);
    }
    SequentialPlan plan = SequentialPlan.of(pol);
    int fewest = pairsPerClass(inputs).values().stream().mapToInt(Integer::intValue).min()
        .orElse(0);
    return plan.decide(plan.lookReachedBy(fewest), family, seed).comparisons();
  }

  /** Input i's pairs of class c at index i * k + c; unlabelled inputs keep all their pairs. */
  private static List<MetricInput> family(List<Input> inputs, List<String> classes) {
    List<MetricInput> family = new ArrayList<>(inputs.size() * classes.size());
    for (Input in : inputs) {
      for (String c : classes) {
        family.add(labelled(in) ? subset(in, c) : in.input());
      }
    }
    return family;
  }

  private static MetricInput subset(Input in, String cls) {
    MetricInput m = in.input();
    int n = VerdictEngine.length(m);
    int[] keep = java.util.stream.IntStream.range(0, n)
        .filter(i -> label(in.classOfPair(), i).equals(cls)).toArray();
    double[] base = pick(m.baseline(), keep);
    double[] cand = pick(m.candidate(), keep);
    String[] hosts = m.hosts() == null ? null
        : Arrays.stream(keep).mapToObj(i -> i < m.hosts().length ? m.hosts()[i] : null)
            .toArray(String[]::new);
    boolean[] first = null;
    if (m.baselineFirst() != null) {
      first = new boolean[keep.length];
      for (int j = 0; j < keep.length; j++) {
        first[j] = keep[j] < m.baselineFirst().length && m.baselineFirst()[keep[j]];
      }
    }
    return MetricInput.paired(m.metric(), m.unit(), m.better(), m.gating(), base, cand, hosts,
        first);
  }

  private static double[] pick(double[] values, int[] keep) {
    return Arrays.stream(keep).mapToDouble(i -> values[i]).toArray();
  }

  private static boolean labelled(Input in) {
    return in.input().paired() && in.classOfPair() != null;
  }

  private static String label(String[] labels, int i) {
    String l = i < labels.length ? labels[i] : null;
    return l == null || l.isBlank() ? UNKNOWN : l;
  }
}
