package dev.abfleet.controller.nightly;

import dev.abfleet.controller.CborSerializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every schedule's runs: finished ones in due order, and started ones not finished yet (which a
 * restarted controller follows again).
 *
 * @param finished by schedule name, sorted by due date
 * @param started by experiment id
 */
public record NightlyState(Map<String, List<RunRecord>> finished, Map<String, NightlyEvent.RunStarted> started)
    implements CborSerializable {

  public static final NightlyState EMPTY = new NightlyState(Map.of(), Map.of());

  public NightlyState {
    finished = Map.copyOf(finished);
    started = Map.copyOf(started);
  }

  NightlyState apply(NightlyEvent event) {
    if (event instanceof NightlyEvent.RunStarted s) {
      Map<String, NightlyEvent.RunStarted> m = new HashMap<>(started);
      m.put(s.experimentId(), s);
      return new NightlyState(finished, m);
    }
    if (event instanceof NightlyEvent.RunFinished f) {
      Map<String, NightlyEvent.RunStarted> m = new HashMap<>(started);
      m.remove(f.run().experiment());
      return new NightlyState(adding(List.of(f.run())), m);
    }
    if (event instanceof NightlyEvent.RunDecided d) {
      return new NightlyState(deciding(d), started);
    }
    return new NightlyState(adding(((NightlyEvent.RunsImported) event).runs()), started);
  }

  private Map<String, List<RunRecord>> deciding(NightlyEvent.RunDecided d) {
    Map<String, List<RunRecord>> m = new LinkedHashMap<>(finished);
    m.replaceAll((schedule, runs) -> runs.stream().map(r -> !r.experiment().equals(d.experimentId()) ? r
        : r.decided(d.accept() ? RunRecord.ACCEPTED : RunRecord.REJECTED, RunRecord.BY_OPERATOR, d.reason(),
            d.decidedAtMs())).toList());
    return m;
  }

  private Map<String, List<RunRecord>> adding(List<RunRecord> runs) {
    Map<String, List<RunRecord>> m = new LinkedHashMap<>(finished);
    for (RunRecord r : runs) {
      List<RunRecord> list = new ArrayList<>(m.getOrDefault(r.schedule(), List.of()));
      list.add(r);
      // Due dates are ISO-8601 instants of one format: they sort as text.
      list.sort(Comparator.comparing(RunRecord::date).thenComparing(RunRecord::experiment));
      m.put(r.schedule(), List.copyOf(list));
    }
    return m;
  }

  /** True when the experiment id is a run, finished or started. */
  boolean knows(String experimentId) {
    return started.containsKey(experimentId) || run(experimentId).isPresent();
  }

  /** A finished run by experiment id. */
  Optional<RunRecord> run(String experimentId) {
    return finished.values().stream().flatMap(List::stream)
        .filter(r -> r.experiment().equals(experimentId)).findFirst();
  }

  /** The schedule's finished runs in due order. */
  List<RunRecord> runs(String schedule) {
    return finished.getOrDefault(schedule, List.of());
  }

  /**
   * The schedule's most recent accepted run (by due date): its candidate is the next baseline of a
   * last_accepted schedule. Held and rejected runs never move it.
   */
  Optional<RunRecord> lastAccepted(String schedule) {
    List<RunRecord> runs = runs(schedule);
    for (int i = runs.size() - 1; i >= 0; i--) {
      if (runs.get(i).accepted()) {
        return Optional.of(runs.get(i));
      }
    }
    return Optional.empty();
  }
}
