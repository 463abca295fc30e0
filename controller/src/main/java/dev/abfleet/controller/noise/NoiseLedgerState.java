package dev.abfleet.controller.noise;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.stats.noise.NoiseRecord;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every host class's noise record.
 *
 * @param records by host-class label
 */
public record NoiseLedgerState(Map<String, NoiseRecord> records) implements CborSerializable {
  public static final NoiseLedgerState EMPTY = new NoiseLedgerState(Map.of());

  public NoiseLedgerState {
    records = Map.copyOf(records);
  }

  /** The record of {@code hostClass} with the event's measurement merged in. */
  NoiseLedgerState apply(NoiseEvent event) {
    NoiseRecord measured = ((NoiseEvent.NoiseMerged) event).measured();
    // One map copy per merge: there are a handful of host classes, merged a few times a day.
    Map<String, NoiseRecord> m = new TreeMap<>(records);
    m.merge(measured.hostClass(), measured, NoiseRecord::merge);
    return new NoiseLedgerState(m);
  }

  /** The record of {@code hostClass}, null when none was merged. */
  NoiseRecord record(String hostClass) {
    return records.get(hostClass);
  }

  /** Every record, sorted by host class. */
  List<NoiseRecord> sorted() {
    return new TreeMap<>(records).values().stream().toList();
  }
}
