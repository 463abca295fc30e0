package dev.abfleet.controller.experiment;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockStarted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentCancelled;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentCompleted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentFailed;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentSubmitted;
import dev.abfleet.controller.experiment.ExperimentEvent.PairCompleted;
import dev.abfleet.controller.experiment.ExperimentEvent.RunRecorded;
import dev.abfleet.controller.experiment.ExperimentEvent.RunRejected;
import dev.abfleet.controller.collection.PersistentMap;
import dev.abfleet.controller.collection.PersistentSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Everything an experiment knows, rebuilt from its events.
 *
 * @param order boot order per pair index (from the seed)
 * @param inFlight block id -> block running now
 * @param pairs completed pair index -> its outcomes in boot order
 * @param attempts pair index -> blocks started for it
 * @param abandoned pair index -> abandoned blocks charged to it
 * @param lost pair index -> blocks of it abandoned because their host was lost (see
 *     {@link ExperimentEvent.BlockAbandoned#lost})
 * @param recordedRunIds every run id ever recorded (idempotency)
 * @param avoid pair index -> hosts where a block of the pair failed for the host's sake (INFRA);
 *     the pair runs on another matching host when there is one
 * @param warmups warm-up boots recorded (policy warmupBoot), in the order they were recorded;
 *     never part of {@code pairs}
 * @param interferedReruns pair index -> blocks of it abandoned because a boot was interfered
 *     ({@link ExperimentEvent.BlockAbandoned#interfered}); bounded by the quiet-host policy
 * @param reruns boots of those blocks, kept for the record ({@link RunOutcome#rerun}), in the
 *     order their blocks were abandoned; never part of {@code pairs}
 */
public record ExperimentState(
    String id,
    Status status,
    ExperimentSpec spec,
    long seed,
    List<List<String>> order,
    Map<String, InFlightBlock> inFlight,
    Map<Integer, List<RunOutcome>> pairs,
    Map<Integer, Integer> attempts,
    Map<Integer, Integer> abandoned,
    Set<String> recordedRunIds,
    int retriedBlocks,
    int rejectedStale,
    String message,
    Map<Integer, Set<String>> avoid,
    List<RunOutcome> warmups,
    // Omitted while empty: snapshots without losses stay byte for byte those of older versions.
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    Map<Integer, Integer> lost,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    Map<Integer, Integer> interferedReruns,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    List<RunOutcome> reruns)
    implements CborSerializable {

  /**
   * The maps and the run ids are persistent collections: an event adds to them without copying
   * them, so replaying N events is O(N) (a copy per event made it O(N^2)). A state read from a
   * snapshot converts them once here.
   */
  public ExperimentState {
    inFlight = persistent(inFlight);
    pairs = persistent(pairs);
    attempts = persistent(attempts);
    abandoned = persistent(abandoned);
    recordedRunIds = recordedRunIds == null ? PersistentSet.empty() : PersistentSet.of(recordedRunIds);
    avoid = persistent(avoid);
    warmups = warmups == null ? List.of() : List.copyOf(warmups);
    lost = persistent(lost);
    interferedReruns = persistent(interferedReruns);
    reruns = reruns == null ? List.of() : List.copyOf(reruns);
  }

  private static <K, V> PersistentMap<K, V> persistent(Map<K, V> map) {
    return map == null ? PersistentMap.empty() : PersistentMap.of(map);
  }

  public enum Status {
    NEW,
    RUNNING,
    COMPLETED,
    CANCELLED,
    FAILED;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public static ExperimentState empty(String id) {
    return new ExperimentState(id, Status.NEW, null, 0, List.of(), Map.of(), Map.of(), Map.of(),
        Map.of(), Set.of(), 0, 0, "", Map.of(), List.of(), Map.of(), Map.of(), List.of());
  }

  public boolean running() {
    return status == Status.RUNNING;
  }

  /**
   * Pairs the experiment runs: the policy's pairs; for a cross-host comparison ({@link
   * HostClassKey#crossClass}) that many per host class, over the classes seen so far (completed
   * pairs and blocks in flight) but at least one per selector hypervisor.
   */
  public int pairsWanted() {
    return pairsWanted(null);
  }

  private int pairsWanted(String extraClass) {
    if (spec == null) {
      return 0;
    }
    if (!HostClassKey.crossClass(spec)) {
      return spec.policy().pairs();
    }
    Set<String> classes = new HashSet<>(classCounts().keySet());
    if (extraClass != null) {
      classes.add(extraClass);
    }
    int atLeast = spec.selector().allowedHypervisors().size();
    return spec.policy().pairs() * Math.max(atLeast, classes.size());
  }

  /** Pairs per host class, completed (as run) and in flight (as planned). */
  public Map<String, Integer> classCounts() {
    Map<String, Integer> counts = new TreeMap<>();
    if (spec == null) {
      return counts;
    }
    for (String c : HostClassKey.ofPairs(completedPairs(), spec.baseline().name())) {
      counts.merge(c, 1, Integer::sum);
    }
    inFlight.values().forEach(b -> counts.merge(b.hostClass(), 1, Integer::sum));
    return counts;
  }

  /** Lowest pair index neither complete nor in flight. */
  public OptionalInt nextPair() {
    return openPairs(pairsWanted()).findFirst();
  }

  /**
   * The pair to run on a host of class {@code hostClass} (as {@link HostClassKey#planned}): for a
   * cross-host comparison, none once the class has its share of pairs; otherwise as {@link
   * #nextPair(String, boolean)}.
   */
  public OptionalInt nextPair(String hostId, boolean otherHostsMatch, String hostClass) {
    if (spec != null && HostClassKey.crossClass(spec)
        && classCounts().getOrDefault(hostClass, 0) >= spec.policy().pairs()) {
      return OptionalInt.empty();
    }
    int wanted = pairsWanted(hostClass);
    OptionalInt welcome = openPairs(wanted)
        .filter(i -> !avoid.getOrDefault(i, Set.of()).contains(hostId)).findFirst();
    return welcome.isPresent() || otherHostsMatch ? welcome : openPairs(wanted).findFirst();
  }

  /**
   * The pair to run on {@code hostId}: the lowest open pair that does not avoid the host, or,
   * when no other matching host exists, the lowest open pair.
   */
  public OptionalInt nextPair(String hostId, boolean otherHostsMatch) {
    OptionalInt welcome = openPairs(pairsWanted())
        .filter(i -> !avoid.getOrDefault(i, Set.of()).contains(hostId)).findFirst();
    return welcome.isPresent() || otherHostsMatch ? welcome : nextPair();
  }

  private IntStream openPairs(int wanted) {
    Set<Integer> busy = new HashSet<>(pairs.keySet());
    inFlight.values().forEach(b -> busy.add(b.pairIndex()));
    return IntStream.range(0, wanted).filter(i -> !busy.contains(i));
  }

  public List<InFlightBlock> blocksOn(String hostId, long epoch) {
    return inFlight.values().stream()
        .filter(b -> b.hostId().equals(hostId) && Fence.admits(b.epoch(), epoch))
        .toList();
  }

  public ExperimentState apply(ExperimentEvent event) {
    if (event instanceof ExperimentSubmitted e) {
      List<List<String>> plan = PairOrder.plan(e.spec().armOrder(), plannedPairs(e.spec()), e.seed());
      return new ExperimentState(e.experimentId(), Status.RUNNING, e.spec(), e.seed(), plan,
          inFlight, pairs, attempts, abandoned, recordedRunIds, 0, 0, "", avoid, warmups, lost, interferedReruns, reruns);
    } else if (event instanceof BlockStarted e) {
      var block = new InFlightBlock(e.blockId(), e.pairIndex(), e.hostId(), e.epoch(), e.runIds(),
          e.arms(), Map.of(), e.hostClass(), e.hostFacts(), e.warmupRunId());
      return withInFlight(put(inFlight, e.blockId(), block))
          .withAttempts(put(attempts, e.pairIndex(), attempts.getOrDefault(e.pairIndex(), 0) + 1));
    } else if (event instanceof RunRecorded e) {
      InFlightBlock block = inFlight.get(e.blockId());
      Set<String> seen = ((PersistentSet<String>) recordedRunIds).with(e.outcome().runId());
      ExperimentState next = withInFlight(put(inFlight, e.blockId(), block.with(e.outcome()))).withRecorded(seen);
      return e.outcome().warmup() ? next.withWarmup(e.outcome()) : next;
    } else if (event instanceof RunRejected) {
      return new ExperimentState(id, status, spec, seed, order, inFlight, pairs, attempts,
          abandoned, recordedRunIds, retriedBlocks, rejectedStale + 1, message, avoid, warmups, lost, interferedReruns, reruns);
    } else if (event instanceof BlockAbandoned e) {
      InFlightBlock block = inFlight.get(e.blockId());
      Map<Integer, Integer> charged = e.charged()
          ? put(abandoned, block.pairIndex(), abandoned.getOrDefault(block.pairIndex(), 0) + 1)
          : abandoned;
      Map<Integer, Integer> lostNow = e.lost()
          ? put(lost, block.pairIndex(), lost.getOrDefault(block.pairIndex(), 0) + 1)
          : lost;
      Map<Integer, Set<String>> avoiding = e.hostFault()
          ? put(avoid, block.pairIndex(), with(avoid.getOrDefault(block.pairIndex(), Set.of()), block.hostId()))
          : avoid;
      Map<Integer, Integer> rerunsNow = e.interfered()
          ? put(interferedReruns, block.pairIndex(), interferedReruns.getOrDefault(block.pairIndex(), 0) + 1)
          : interferedReruns;
      return new ExperimentState(id, status, spec, seed, order, remove(inFlight, e.blockId()),
          pairs, attempts, charged, recordedRunIds, retriedBlocks + 1, rejectedStale, message,
          avoiding, warmups, lostNow, rerunsNow, e.interfered() ? kept(block) : reruns);
    } else if (event instanceof PairCompleted e) {
      InFlightBlock block = inFlight.get(e.blockId());
      return new ExperimentState(id, status, spec, seed, order, remove(inFlight, e.blockId()),
          put(pairs, e.pairIndex(), block.outcomesInOrder()), attempts, abandoned,
          recordedRunIds, retriedBlocks, rejectedStale, message, avoid, warmups, lost, interferedReruns, reruns);
    } else if (event instanceof ExperimentCompleted) {
      return withStatus(Status.COMPLETED, "");
    } else if (event instanceof ExperimentCancelled e) {
      return withStatus(Status.CANCELLED, e.reason());
    } else if (event instanceof ExperimentFailed e) {
      return withStatus(Status.FAILED, e.reason());
    }
    throw new IllegalStateException("unknown event " + event);
  }

  /**
   * Pair orders to draw at submission: the policy's pairs, or for a cross-host comparison enough
   * for {@link #MAX_PLANNED_CLASSES} classes (only the first booted arm of each is used as a
   * starting point by {@link PairOrder#balanced}).
   */
  static int plannedPairs(ExperimentSpec spec) {
    return HostClassKey.crossClass(spec) ? spec.policy().pairs() * MAX_PLANNED_CLASSES
        : spec.policy().pairs();
  }

  /** Classes a cross-host comparison draws pair orders for; later pairs reuse them cyclically. */
  static final int MAX_PLANNED_CLASSES = 16;

  /**
   * True when this experiment's last block on the host ran under neither {@code epoch} nor the
   * lease just before it: the host comes from idle, another experiment, or a restart, so its
   * caches and clocks are not warm from this experiment's boots. Leases are per block and epochs
   * grow by one per lease, so back-to-back blocks of one experiment are never fresh.
   */
  public boolean freshLease(String hostId, long epoch) {
    long last = 0;
    for (List<RunOutcome> outcomes : pairs.values()) {
      for (RunOutcome o : outcomes) {
        last = o.hostId().equals(hostId) ? Math.max(last, o.leaseEpoch()) : last;
      }
    }
    for (InFlightBlock b : inFlight.values()) {
      last = b.hostId().equals(hostId) ? Math.max(last, b.epoch()) : last;
    }
    for (RunOutcome o : warmups) {
      last = o.hostId().equals(hostId) ? Math.max(last, o.leaseEpoch()) : last;
    }
    return last == 0 || last < epoch - 1;
  }

  /** Outcomes of completed pairs, by pair index. */
  public Map<Integer, List<RunOutcome>> completedPairs() {
    return new TreeMap<>(pairs);
  }

  private ExperimentState withStatus(Status next, String why) {
    return new ExperimentState(id, next, spec, seed, order, inFlight, pairs, attempts, abandoned,
        recordedRunIds, retriedBlocks, rejectedStale, why, avoid, warmups, lost, interferedReruns, reruns);
  }

  /** {@link #reruns} with the measured boots the block recorded, marked as re-run. */
  private List<RunOutcome> kept(InFlightBlock block) {
    List<RunOutcome> next = new java.util.ArrayList<>(reruns);
    block.outcomesInOrder().forEach(o -> next.add(o.asRerun()));
    return next;
  }

  /** Blocks re-run because a boot of theirs was interfered. */
  public int interferedRerunCount() {
    return interferedReruns.values().stream().mapToInt(Integer::intValue).sum();
  }

  private ExperimentState withWarmup(RunOutcome warmup) {
    List<RunOutcome> next = new java.util.ArrayList<>(warmups);
    next.add(warmup);
    return new ExperimentState(id, status, spec, seed, order, inFlight, pairs, attempts, abandoned,
        recordedRunIds, retriedBlocks, rejectedStale, message, avoid, next, lost, interferedReruns, reruns);
  }

  private ExperimentState withInFlight(Map<String, InFlightBlock> next) {
    return new ExperimentState(id, status, spec, seed, order, next, pairs, attempts, abandoned,
        recordedRunIds, retriedBlocks, rejectedStale, message, avoid, warmups, lost, interferedReruns, reruns);
  }

  private ExperimentState withAttempts(Map<Integer, Integer> next) {
    return new ExperimentState(id, status, spec, seed, order, inFlight, pairs, next, abandoned,
        recordedRunIds, retriedBlocks, rejectedStale, message, avoid, warmups, lost, interferedReruns, reruns);
  }

  private ExperimentState withRecorded(Set<String> next) {
    return new ExperimentState(id, status, spec, seed, order, inFlight, pairs, attempts, abandoned,
        next, retriedBlocks, rejectedStale, message, avoid, warmups, lost, interferedReruns, reruns);
  }

  private static <K, V> Map<K, V> put(Map<K, V> map, K key, V value) {
    return ((PersistentMap<K, V>) map).with(key, value);
  }

  private static Set<String> with(Set<String> set, String value) {
    Set<String> next = new HashSet<>(set);
    next.add(value);
    return Set.copyOf(next);
  }

  private static <K, V> Map<K, V> remove(Map<K, V> map, K key) {
    return ((PersistentMap<K, V>) map).without(key);
  }
}
