package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockStarted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentCompleted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentFailed;
import dev.abfleet.controller.experiment.ExperimentEvent.PairCompleted;
import dev.abfleet.controller.experiment.ExperimentEvent.RunRecorded;
import dev.abfleet.controller.experiment.ExperimentEvent.RunRejected;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.BootTimeouts;
import dev.abfleet.controller.plan.RunPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.abfleet.report.BootHost;
import dev.abfleet.report.HostFactChange;
import java.util.LinkedHashMap;

/** The experiment's decisions as pure functions of its state. */
public final class Decisions {
  private Decisions() {}

  /** Abandoned blocks a pair may charge before the experiment fails. */
  public static final int MAX_ABANDONED_PER_PAIR = 3;

  /**
   * Blocks a pair may lose to the infrastructure (its lease lost because the host went offline
   * or reconnected, or the controller restarted) before the experiment fails. Such losses say
   * nothing about the kernels, so they are not charged against {@link #MAX_ABANDONED_PER_PAIR};
   * this cap only ends an experiment on a fleet that keeps losing every block.
   */
  public static final int MAX_LOST_PER_PAIR = 20;

  /** Abandonment reason of a block stopped for a higher-priority experiment; never charged. */
  public static final String PREEMPTED = "preempted";

  /** Events to persist and the answer to the reporter. */
  public record Decision(List<ExperimentEvent> events, RecordResult result) {}

  /**
   * The block for {@code pair} on this host: every arm once, in the pair's seeded order; with
   * the policy's warm-up boot on a fresh lease ({@link ExperimentState#freshLease}), one boot of
   * the baseline arm before them.
   */
  public static Block planBlock(ExperimentState state, String hostId, long epoch, int pair) {
    return planBlock(state, hostId, epoch, pair, state.spec().selector().hypervisor());
  }

  /** As above, booting with {@code hypervisor} (the one the selector picks for the host). */
  public static Block planBlock(ExperimentState state, String hostId, long epoch, int pair,
      String hypervisor) {
    int attempt = state.attempts().getOrDefault(pair, 0);
    String blockId = state.id() + "-p" + pair + "-a" + attempt;
    List<RunPlan> runs = new ArrayList<>();
    List<String> arms = PairOrder.balanced(state.order().get(pair % state.order().size()),
        state.spec().armOrder(),
        firstArms(state, hostId), firstArms(state, null));
    ExperimentSpec spec = state.spec();
    if (spec.policy().warmupBoot() && state.freshLease(hostId, epoch)) {
      ArmSpec base = spec.baseline();
      runs.add(new RunPlan(blockId + "-warmup", base.name(), 0, base.kernel(), base.initrd(),
          base.cmdlineExtra(), base.vcpus(), base.memoryMib(), spec.benchmark(),
          bootTimeout(state, base).seconds(), hypervisor, true, base.guest(), spec.consolePatterns(),
          quietPlan(spec)));
    }
    for (int i = 0; i < arms.size(); i++) {
      ArmSpec arm = spec.arm(arms.get(i));
      runs.add(new RunPlan(blockId + "-" + arm.name(), arm.name(), i, arm.kernel(), arm.initrd(),
          arm.cmdlineExtra(), arm.vcpus(), arm.memoryMib(), spec.benchmark(),
          bootTimeout(state, arm).seconds(), hypervisor, false, arm.guest(), spec.consolePatterns(),
          quietPlan(spec)));
    }
    return new Block(blockId, state.id(), pair, hostId, epoch, runs);
  }

  /** The quiet-host policy runs carry; null without one (the worker's own threshold, no wait). */
  private static HostQuiet quietPlan(ExperimentSpec spec) {
    return spec.policy().hostQuiet().on() ? spec.policy().hostQuiet() : null;
  }

  /**
   * The limit of the arm's next boot ({@link ExperimentSpec#bootTimeout}), per arm because arms
   * may differ in speed (a slower candidate must not be cut short by the baseline's durations).
   * Counts the arm's measured boots that ended OK, in completed pairs and in blocks still in
   * flight: all of them journalled, so a replay plans the same limits.
   */
  public static BootTimeouts.Limit bootTimeout(ExperimentState state, ArmSpec arm) {
    List<Long> runMs = new ArrayList<>();
    state.pairs().values().forEach(outcomes -> outcomes.forEach(o -> addRun(runMs, o, arm.name())));
    state.inFlight().values().forEach(b -> b.recorded().values().forEach(o -> addRun(runMs, o, arm.name())));
    return state.spec().bootTimeout(arm, runMs);
  }

  private static void addRun(List<Long> runMs, RunOutcome o, String arm) {
    if (o.arm().equals(arm) && !o.warmup() && o.status() == RunOutcome.Status.OK && o.runMs() > 0) {
      runMs.add(o.runMs());
    }
  }

  /** The first-booted arm of every pair completed or in flight on this host (null: anywhere). */
  static List<String> firstArms(ExperimentState state, String hostId) {
    List<String> firsts = new ArrayList<>();
    state.pairs().values().forEach(outcomes -> outcomes.stream()
        .filter(o -> (hostId == null || o.hostId().equals(hostId)) && o.orderInPair() == 0)
        .findFirst().ifPresent(o -> firsts.add(o.arm())));
    state.inFlight().values().stream().filter(b -> hostId == null || b.hostId().equals(hostId))
        .forEach(b -> firsts.add(b.firstMeasuredArm()));
    return firsts;
  }

  public static BlockStarted started(Block block, int attempt) {
    return started(block, attempt, "", "");
  }

  /** As above, for a host of this planned class with these class_by facts. */
  public static BlockStarted started(Block block, int attempt, String hostClass, String hostFacts) {
    return new BlockStarted(block.blockId(), block.pairIndex(), attempt, block.hostId(),
        block.leaseEpoch(), block.runs().stream().map(RunPlan::runId).toList(),
        block.runs().stream().map(RunPlan::arm).toList(), hostClass, hostFacts,
        block.runs().stream().filter(RunPlan::warmup).map(RunPlan::runId).findFirst().orElse(""));
  }

  /**
   * A boot's report: counted once per run id, only for the block in flight under the same lease
   * epoch; INFRA abandons the block so the pair runs again whole. A warm-up boot is recorded as
   * such whatever its status and never abandons its block. A block whose measured boots are all
   * recorded, one of them interfered, may be re-run instead of completing its pair
   * ({@link #rerunForInterference}).
   */
  public static Decision recordRun(ExperimentState state, RunOutcome outcome, String blockId) {
    if (!state.running()) {
      return new Decision(List.of(), RecordResult.NOT_RUNNING);
    }
    if (state.recordedRunIds().contains(outcome.runId())) {
      return new Decision(List.of(), RecordResult.DUPLICATE);
    }
    InFlightBlock block = state.inFlight().get(blockId);
    if (block == null || !Fence.admits(block.epoch(), outcome.leaseEpoch()) || !block.contains(outcome.runId())) {
      return new Decision(List.of(new RunRejected(outcome.runId(), blockId, outcome.leaseEpoch())),
          RecordResult.REJECTED_STALE);
    }
    if (block.isWarmup(outcome.runId())) {
      // Whatever its status, a warm-up is recorded once and the block goes on: never retried.
      RunOutcome warmup = outcome.placed(block.armOf(outcome.runId()), block.pairIndex(), 0).asWarmup();
      return new Decision(List.of(new RunRecorded(warmup, blockId)), RecordResult.RECORDED);
    }
    if (outcome.status() == RunOutcome.Status.CONFIG) {
      // Not a result about the kernel and not the host's fault: no other host will do better.
      List<ExperimentEvent> events = new ArrayList<>(abandon(state, List.of(block),
          "configuration error on host " + block.hostId() + ": " + outcome.message(), false));
      events.add(new ExperimentFailed("arm " + block.armOf(outcome.runId()) + " cannot run as"
          + " configured: " + outcome.message()));
      return new Decision(events, RecordResult.ABANDONED);
    }
    if (outcome.status() == RunOutcome.Status.INFRA) {
      String reason = "infra failure on host " + block.hostId() + ": " + outcome.message();
      return new Decision(abandon(state, List.of(block), reason, true, true), RecordResult.ABANDONED);
    }
    RunOutcome placed = outcome.placed(block.armOf(outcome.runId()), block.pairIndex(),
        block.orderOf(outcome.runId())).withHostFacts(block.hostFacts());
    List<ExperimentEvent> events = new ArrayList<>();
    events.add(new RunRecorded(placed, blockId));
    if (block.with(placed).complete()) {
      List<ExperimentEvent> spanned = factChangedWithinPair(state, block.with(placed));
      if (!spanned.isEmpty()) {
        events.addAll(spanned);
        return new Decision(events, RecordResult.ABANDONED);
      }
      List<ExperimentEvent> rerun = rerunForInterference(state, block.with(placed));
      if (!rerun.isEmpty()) {
        events.addAll(rerun);
        return new Decision(events, RecordResult.ABANDONED);
      }
      events.add(new PairCompleted(block.pairIndex(), blockId));
      int done = state.pairs().size() + (state.pairs().containsKey(block.pairIndex()) ? 0 : 1);
      boolean complete = done >= state.pairsWanted();
      if (!complete && ReportInputs.lookMayBeDue(state.spec(), done)) {
        // Only then copy and convert every completed pair: per pair, that is O(pairs).
        Map<Integer, List<RunOutcome>> completed = state.completedPairs();
        completed.put(block.pairIndex(), block.with(placed).outcomesInOrder());
        complete = ReportInputs.stopEarly(state.spec(), completed, state.seed());
      }
      if (complete) {
        events.add(new ExperimentCompleted(done));
      }
    }
    return new Decision(events, RecordResult.RECORDED);
  }

  /**
   * The events that re-run a complete block because a measured boot of it was interfered (the
   * worker found its host not quiet), or none when its pair counts as it is. Under the policy
   * {@link HostQuiet#RERUN} the block is abandoned uncharged, its boots kept for the record, while
   * the pair has re-runs left ({@link HostQuiet#maxRerunsPerPair}); after that, and under
   * {@link HostQuiet#KEEP}, the boots are pooled and the reports count them. An interfered
   * TIMEOUT says nothing about the kernel, so it never enters a pair or the boot-failure
   * comparison: it re-runs under either policy, and past the limit the re-run is charged against
   * {@link #MAX_ABANDONED_PER_PAIR}, so a host that is never quiet fails the experiment.
   */
  static List<ExperimentEvent> rerunForInterference(ExperimentState state, InFlightBlock block) {
    List<RunOutcome> interfered = block.outcomesInOrder().stream().filter(RunOutcome::interfered).toList();
    if (interfered.isEmpty()) {
      return List.of();
    }
    HostQuiet quiet = state.spec().policy().hostQuiet();
    if (!quiet.on()) {
      return List.of();
    }
    RunOutcome timedOut = interfered.stream()
        .filter(o -> o.status() == RunOutcome.Status.TIMEOUT).findFirst().orElse(null);
    boolean left = state.interferedReruns().getOrDefault(block.pairIndex(), 0) < quiet.maxRerunsPerPair();
    if (!(quiet.reruns() || timedOut != null) || (!left && timedOut == null)) {
      return List.of();
    }
    RunOutcome cause = timedOut != null ? timedOut : interfered.get(0);
    String reason = notQuiet(cause, quiet);
    if (left) {
      return List.of(new BlockAbandoned(block.blockId(), reason, false, false, false, true));
    }
    List<ExperimentEvent> events = new ArrayList<>();
    String charged = reason + "; the run timed out and the pair's " + quiet.maxRerunsPerPair()
        + " re-runs for interference are spent";
    events.add(new BlockAbandoned(block.blockId(), charged, true, false, false, true));
    int n = state.abandoned().getOrDefault(block.pairIndex(), 0) + 1;
    if (n >= MAX_ABANDONED_PER_PAIR) {
      events.add(new ExperimentFailed("pair " + block.pairIndex() + " was abandoned " + n
          + " times; last reason: " + charged + ". Stop what loads host " + block.hostId()
          + " or raise policy.host_quiet.cpu_some_pct."));
    }
    return events;
  }

  /**
   * The events that run a complete block's pair again because a host fact that decides
   * comparability (QEMU's version, the host kernel, microcode, SMT, THP, ...) changed between its
   * boots, or none: a pair never spans such a change. Charged like any abandoned block, so a host
   * whose facts keep changing fails the experiment instead of re-running it forever.
   */
  static List<ExperimentEvent> factChangedWithinPair(ExperimentState state, InFlightBlock block) {
    Map<String, BootHost.Facts> facts = new LinkedHashMap<>();
    for (RunOutcome o : block.outcomesInOrder()) {
      if (o.guest().host() != null) {
        facts.put(o.runId(), o.guest().host().facts());
      }
    }
    List<HostFactChange> changes = HostFactChange.along(block.hostId(), facts);
    if (changes.isEmpty()) {
      return List.of();
    }
    HostFactChange c = changes.get(0);
    String reason = "host " + block.hostId() + "'s " + c.fact() + " changed within pair " + block.pairIndex()
        + ": '" + c.from() + "' -> '" + c.to() + "' at run " + c.firstRun() + "; the pair runs again";
    return abandon(state, List.of(block), reason, true);
  }

  /** "host h1 was not quiet during run r (cpu pressure 37.2% avg10, 21.0% over the run; threshold 10%)" */
  static String notQuiet(RunOutcome o, HostQuiet quiet) {
    var p = o.guest().host().pressure();
    double overRun = p.windowMs() > 0 ? p.cpuSomeTotalUs() / (p.windowMs() * 10.0) : 0;
    String others = Double.isNaN(p.otherCpuPct()) ? "" : String.format(java.util.Locale.ROOT,
        "; other processes %.1f%% of the cpu", p.otherCpuPct());
    return String.format(java.util.Locale.ROOT,
        "host %s was not quiet during run %s (cpu pressure %.1f%% avg10, %.1f%% over the run%s;"
            + " threshold %s%%)", o.hostId(), o.runId(), p.cpuSomeAvg10(), overRun, others,
        java.math.BigDecimal.valueOf(quiet.cpuSomePct()).stripTrailingZeros().toPlainString());
  }

  /**
   * Abandons the blocks; fails the experiment once a pair has been abandoned
   * {@link #MAX_ABANDONED_PER_PAIR} times.
   */
  public static List<ExperimentEvent> abandon(
      ExperimentState state, List<InFlightBlock> blocks, String reason, boolean charged) {
    return abandon(state, blocks, reason, charged, false);
  }

  /** As above; {@code hostFault} makes each block's pair avoid its host from now on. */
  public static List<ExperimentEvent> abandon(ExperimentState state, List<InFlightBlock> blocks,
      String reason, boolean charged, boolean hostFault) {
    List<ExperimentEvent> events = new ArrayList<>();
    Map<Integer, Integer> counts = new HashMap<>(state.abandoned());
    String failure = null;
    for (InFlightBlock block : blocks) {
      events.add(new BlockAbandoned(block.blockId(), reason, charged, hostFault, false));
      if (charged) {
        int n = counts.merge(block.pairIndex(), 1, Integer::sum);
        if (n >= MAX_ABANDONED_PER_PAIR && failure == null) {
          failure = "pair " + block.pairIndex() + " was abandoned " + n
              + " times; last reason: " + reason + ". Check the hosts' workers and artifacts.";
        }
      }
    }
    if (failure != null) {
      events.add(new ExperimentFailed(failure));
    }
    return events;
  }

  /**
   * Abandons blocks whose host was lost to the infrastructure (see {@link #MAX_LOST_PER_PAIR}):
   * not charged, so their pairs run again; fails the experiment only once a pair has been lost
   * that many times.
   */
  public static List<ExperimentEvent> abandonLost(
      ExperimentState state, List<InFlightBlock> blocks, String reason) {
    List<ExperimentEvent> events = new ArrayList<>();
    Map<Integer, Integer> counts = new HashMap<>(state.lost());
    String failure = null;
    for (InFlightBlock block : blocks) {
      events.add(new BlockAbandoned(block.blockId(), reason, false, false, true));
      int n = counts.merge(block.pairIndex(), 1, Integer::sum);
      if (n >= MAX_LOST_PER_PAIR && failure == null) {
        failure = "pair " + block.pairIndex() + " lost its host " + n + " times; last reason: "
            + reason + ". Check that the workers stay connected (their logs, the controller's"
            + " heartbeat timeout) and that the controller is not restarting.";
      }
    }
    if (failure != null) {
      events.add(new ExperimentFailed(failure));
    }
    return events;
  }
}
