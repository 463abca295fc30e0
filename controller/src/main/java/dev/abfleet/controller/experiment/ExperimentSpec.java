package dev.abfleet.controller.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.PinNeed;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.BootTimeouts;
import java.util.List;

/**
 * What a client submits: arms to compare, the benchmark, where to run and the policy.
 *
 * @param priority "pr", "nightly" or "adhoc" (empty = adhoc)
 * @param owner id of the API token that submitted it; empty = submitted without a token (auth
 *     off, or recorded before tokens existed: null in an old journal reads as empty)
 * @param consolePatterns regular expressions every boot's console is scanned for; empty = the
 *     worker's default list (and what journals recorded before console scans read as)
 */
public record ExperimentSpec(
    String name,
    List<ArmSpec> arms,
    BenchmarkSpec benchmark,
    HostSelector selector,
    PolicySpec policy,
    String priority,
    String owner,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> consolePatterns) {

  /** A spec without an owner. */
  public ExperimentSpec(String name, List<ArmSpec> arms, BenchmarkSpec benchmark,
      HostSelector selector, PolicySpec policy, String priority) {
    this(name, arms, benchmark, selector, policy, priority, "", List.of());
  }

  /** A spec whose boots' consoles are scanned for the worker's default patterns. */
  public ExperimentSpec(String name, List<ArmSpec> arms, BenchmarkSpec benchmark,
      HostSelector selector, PolicySpec policy, String priority, String owner) {
    this(name, arms, benchmark, selector, policy, priority, owner, List.of());
  }

  public ExperimentSpec {
    name = name == null ? "" : name;
    arms = arms == null ? List.of() : List.copyOf(arms);
    benchmark = benchmark == null ? new BenchmarkSpec("", List.of(), 0, 0, 0) : benchmark;
    selector = (selector == null ? HostSelector.any() : selector).needingVolume(benchmark.hostVolume())
        .needingTransports(benchmark.hostVolume() ? transports(benchmark, arms) : List.of())
        .pinning(pinNeed(arms)).forGuestArch(guestArch(arms));
    policy = policy == null ? PolicySpec.defaults() : policy;
    priority = priority == null || priority.isEmpty() ? "adhoc" : priority;
    owner = owner == null ? "" : owner;
    consolePatterns = consolePatterns == null ? List.of() : List.copyOf(consolePatterns);
  }

  /** This spec as submitted by the token {@code ownerId} (empty = no token). */
  public ExperimentSpec withOwner(String ownerId) {
    return new ExperimentSpec(name, arms, benchmark, selector, policy, priority, ownerId, consolePatterns);
  }

  /** This spec scanning every boot's console for {@code patterns} (empty = the default list). */
  public ExperimentSpec withConsolePatterns(List<String> patterns) {
    return new ExperimentSpec(name, arms, benchmark, selector, policy, priority, owner, patterns);
  }

  /** The volume transports the arms name (their own, else the benchmark's), in arm order; empty = any. */
  static List<String> transports(BenchmarkSpec benchmark, List<ArmSpec> arms) {
    java.util.LinkedHashSet<String> named = new java.util.LinkedHashSet<>();
    for (ArmSpec a : arms) {
      String t = a.guest().volumeTransport().isEmpty() ? benchmark.transport() : a.guest().volumeTransport();
      if (!t.isEmpty()) {
        named.add(t);
      }
    }
    return List.copyOf(named);
  }

  /** The pinned arm with the most vCPUs (a host needs a CPU for each), or none. */
  static PinNeed pinNeed(List<ArmSpec> arms) {
    return arms.stream().filter(a -> a.guest().pinVcpus())
        .map(a -> new PinNeed(a.name(), Math.max(1, a.vcpus())))
        .max(java.util.Comparator.comparingInt(PinNeed::vcpus))
        .orElse(PinNeed.NONE);
  }

  /**
   * The guest architecture of the arms' kernels, when every arm that names one names the same;
   * empty otherwise (unknown, or mixed: the validator rejects mixed arms).
   */
  static String guestArch(List<ArmSpec> arms) {
    java.util.Set<String> named = new java.util.LinkedHashSet<>();
    arms.forEach(a -> {
      if (!a.guest().arch().isEmpty()) {
        named.add(a.guest().arch());
      }
    });
    return named.size() == 1 ? named.iterator().next() : "";
  }

  /**
   * The wall-clock limit of one boot of {@code arm}, given the run times in ms of the arm's
   * completed boots: the policy's when it sets one, otherwise adaptive ({@link BootTimeouts}).
   */
  public BootTimeouts.Limit bootTimeout(ArmSpec arm, List<Long> completedRunMs) {
    return BootTimeouts.limit(policy.bootTimeoutS(), benchmark, arm.vcpus(), completedRunMs);
  }

  /** The limit in seconds of the baseline's first boots, before any completed. */
  public int bootTimeoutS() {
    return bootTimeout(baseline(), List.of()).seconds();
  }

  /** The baseline arm; validated specs have exactly one. */
  public ArmSpec baseline() {
    return arms.stream().filter(a -> a.role() == ArmSpec.Role.BASELINE).findFirst().orElseThrow();
  }

  /** Candidate arms in submission order. */
  public List<ArmSpec> candidates() {
    return arms.stream().filter(a -> a.role() == ArmSpec.Role.CANDIDATE).toList();
  }

  /** The ceiling arm, or null when the experiment has none. */
  public ArmSpec ceiling() {
    return arms.stream().filter(a -> a.role() == ArmSpec.Role.CEILING).findFirst().orElse(null);
  }

  /** Arms compared with the baseline: the candidates, then the ceiling if any. */
  public List<ArmSpec> compared() {
    ArmSpec ceiling = ceiling();
    return ceiling == null ? candidates()
        : java.util.stream.Stream.concat(candidates().stream(), java.util.stream.Stream.of(ceiling)).toList();
  }

  /** Arm names, baseline first, then candidates in submission order, then the ceiling. */
  public List<String> armOrder() {
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(baseline()), compared().stream())
        .map(ArmSpec::name)
        .toList();
  }

  public ArmSpec arm(String armName) {
    return arms.stream().filter(a -> a.name().equals(armName)).findFirst().orElseThrow();
  }
}
